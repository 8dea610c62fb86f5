"""Request, response and error types of the LLM gateway — the contract the runtime codes against.

Invariants: a request never holds an API key (keys are resolved inside the gateway from the
environment or the OS keyring); every failure is an `LLMError` that names provider, model and cause.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import field
from typing import Any, Protocol

from engine.event_record import TupleRecord

DeltaCallback = Callable[[str], None]


class LLMRequest(TupleRecord, kw_only=False):
    model: str  # "sim/...", "local/smollm2", or any litellm model id ("openai/gpt-4o-mini", ...)
    messages: list[dict[str, Any]]
    temperature: float = 0.0
    max_tokens: int | None = None
    tools: list[dict[str, Any]] | None = None
    timeout_s: float = 60.0
    retries: int = 2
    stream: bool = True
    api_base: str | None = None
    seed: int | None = None
    # What the simulated provider needs to answer in role: role, node_id, round, task, ... (no secrets)
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        return {
            "model": self.model, "messages": self.messages, "temperature": self.temperature,
            "max_tokens": self.max_tokens, "tools": self.tools, "api_base": self.api_base,
            "seed": self.seed, "metadata": self.metadata,
        }


class LLMResponse(TupleRecord, kw_only=False):
    content: str
    model: str
    provider: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    finish_reason: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    priced: bool = True  # False: no price known for the model, so cost_usd is 0 but not "free"

    def to_record(self) -> dict[str, Any]:
        return {
            "content": self.content, "model": self.model, "provider": self.provider,
            "tokens_in": self.tokens_in, "tokens_out": self.tokens_out, "cost_usd": self.cost_usd,
            "latency_s": self.latency_s, "finish_reason": self.finish_reason,
            "tool_calls": self.tool_calls, "priced": self.priced,
        }


class StreamAttempts:
    """What a gateway hands its provider as the delta callback of one call, across retries: when an
    attempt after one that already streamed starts, the call's receiver is told first — through
    `on_delta.restart(attempt)` when the receiver has that method — so it can drop the broken
    attempt's text instead of reading both attempts as one reply. A retry itself (which error, how
    long the wait) reaches `on_delta.retrying(attempt, error, delay_s)` when the receiver has it."""

    def __init__(self, on_delta: DeltaCallback) -> None:
        self._on_delta = on_delta
        self._streamed = False

    def __call__(self, text: str) -> None:
        self._streamed = True
        self._on_delta(text)

    def new_attempt(self, number: int) -> None:
        if self._streamed:
            self._streamed = False
            restart = getattr(self._on_delta, "restart", None)
            if restart is not None:
                restart(number)

    def retrying(self, attempt: int, error: LLMError, delay_s: float) -> None:
        announce = getattr(self._on_delta, "retrying", None)
        if announce is not None:
            announce(attempt, error, delay_s)


def stream_attempts(on_delta: DeltaCallback | None) -> StreamAttempts | None:
    return StreamAttempts(on_delta) if on_delta is not None else None


class LLMError(Exception):
    """A model call failed. `retryable` tells the recovery ladder whether to retry."""

    retryable = False

    def __init__(self, message: str, *, provider: str, model: str, attempts: int = 1) -> None:
        where = model if not provider or model.startswith(f"{provider}/") else f"{provider}/{model}"
        super().__init__(f"{where}: {message}")
        self.provider = provider
        self.model = model
        self.reason = message
        self.attempts = attempts
        self.retry_after_s: float | None = None  # what the provider asked to wait (Retry-After), if it did


class RateLimitedError(LLMError):
    retryable = True


class ProviderUnavailableError(LLMError):
    """5xx / connection failures."""

    retryable = True


class LLMTimeoutError(LLMError):
    retryable = True


class AuthenticationError(LLMError):
    """Missing or rejected API key; the message says which variable or keyring entry to set."""


class BadRequestError(LLMError):
    """The provider refused the request (unknown model, bad parameters, context too long)."""


class ChatGateway(Protocol):
    """What the runtime needs from a model gateway. `engine.llm.gateway.Gateway` implements it;
    replay implements it by serving recorded responses."""

    def complete(
        self, request: LLMRequest, on_delta: DeltaCallback | None = None
    ) -> Awaitable[LLMResponse]: ...
