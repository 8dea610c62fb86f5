"""Retries with exponential backoff and jitter around one model call.

`with_retries(call, retries=n)` runs `call(attempt)` for attempt 1..n+1 while it raises a
*retryable* `LLMError` (rate limit, 5xx / connection, timeout), sleeping
`min(cap, base * 2**(attempt-1))` scaled by a random factor in [1 - jitter, 1 + jitter] between
attempts — or longer when the provider said how long to wait (`Retry-After` on a 429 / 503,
`LLMError.retry_after_s`); `on_retry(next_attempt, error, delay_s)`, when given, hears of each retry before the wait.
The error that finally escapes carries `attempts` = how many were made.

Invariant: non-retryable errors (auth, bad request) escape at once; at most `retries + 1` attempts.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from engine.llm.types import LLMError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Backoff:
    base_s: float = 0.5
    cap_s: float = 20.0
    jitter: float = 0.5

    def delay(self, attempt: int, rng: random.Random | None = None) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        raw = min(self.cap_s, self.base_s * (2.0 ** (attempt - 1)))
        draw = rng.random() if rng is not None else random.random()
        factor = 1.0 + self.jitter * (2.0 * draw - 1.0)
        return max(0.0, raw * factor)


async def with_retries(
    call: Callable[[int], Awaitable[T]],
    *,
    retries: int,
    backoff: Backoff,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    on_retry: Callable[[int, LLMError, float], None] | None = None,
) -> T:
    attempt = 1
    while True:
        try:
            return await call(attempt)
        except LLMError as exc:
            exc.attempts = attempt
            if not exc.retryable or attempt > retries:
                raise
            delay = max(backoff.delay(attempt), exc.retry_after_s or 0.0)  # a provider's Retry-After wins
            if on_retry is not None:
                on_retry(attempt + 1, exc, delay)
        await sleep(delay)
        attempt += 1


__all__ = ["Backoff", "with_retries"]
