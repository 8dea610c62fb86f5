"""What goes on while one model call streams: its deltas become events, its tokens (and their cost)
are counted against the budgets as they arrive.

Invariants: `CallDeltas` is the only delta callback the runtime hands a gateway — each delta is an
`LLMTokenDelta` in the call's span, a retry an `LLMCallRetrying`, a retried stream's restart an
`LLMStreamRestarted`, emitted on the loop even when a provider calls from a worker thread;
`TokenMeter` counts only when a token or cost limit applies (`on`), and what it counted is settled
exactly once per call. A call without such a limit gets `UNMETERED`, one shared meter that is never
on (so never changes).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from engine.budget import Budget
from engine.events import LLMCallRetrying, LLMStreamRestarted
from engine.llm.prices import ModelPrice
from engine.llm.tokens import count_messages, count_text
from engine.llm.types import LLMError, LLMRequest, LLMResponse
from engine.runtime.budget import BudgetHit, BudgetTracker
from engine.runtime.nodesetup import CallSettings
from engine.runtime.run_services import RunServices


class TokenMeter:
    """One call's tokens in flight (prompt, then streamed deltas), counted against the token budgets
    — and, at the model's per-token `price`, against the cost budgets — while it streams; crossing a
    limit records the `BudgetHit` and cancels the call."""

    def __init__(self, budget: BudgetTracker, node_key: str, model: str, node_max_tokens: int,
                 node_max_cost: float, price: ModelPrice | None) -> None:
        self.budget, self.node_key, self.model = budget, node_key, model
        self.node_max, self.node_max_cost = node_max_tokens, node_max_cost
        self.price = price if price is not None and budget.watches_cost(node_max_cost) else None
        self.on = budget.watches_tokens(node_max_tokens) or self.price is not None
        self.prompt = self.streamed = 0
        self.hit: BudgetHit | None = None
        self.call: asyncio.Future[LLMResponse] | None = None

    def cost(self) -> float:
        """What the tokens counted so far cost at the model's price (0.0 without one)."""
        return self.price.cost(self.prompt, self.streamed) if self.price is not None else 0.0

    def start(self, messages: list[dict[str, Any]]) -> None:
        if self.on:
            self.prompt = count_messages(messages, self.model)
            self._add(self.prompt, self.prompt * self.price.input_per_token if self.price else 0.0)

    def add_text(self, text: str) -> None:
        if self.on and self.hit is None:
            tokens = count_text(text, self.model)
            self.streamed += tokens
            self._add(tokens, tokens * self.price.output_per_token if self.price else 0.0)

    def _add(self, tokens: int, cost: float) -> None:
        try:
            self.budget.stream(self.node_key, tokens, self.node_max, cost, self.node_max_cost)
        except BudgetHit as hit:  # this call's crossing, or the run's first hit (its budget is spent)
            self.hit = hit
            if self.call is not None:
                self.call.cancel()

    def settle(self) -> None:
        if self.on:
            self.budget.settle(self.node_key, self.prompt + self.streamed, self.cost())


UNMETERED = TokenMeter(BudgetTracker(Budget()), "", "", 0, 0.0, None)  # no limit: never on


def meter_for(budget: BudgetTracker, node_key: str, request: LLMRequest, settings: CallSettings,
              gateway: object) -> TokenMeter:
    """The meter of one call: `UNMETERED` unless a run or node token or cost limit applies (the
    price, for a cost limit, from the gateway's `price_of(request)` when it has one)."""
    node_max_tokens, node_max_cost = settings.max_tokens, settings.max_cost_usd
    if not (budget.meters or node_max_tokens or node_max_cost):
        return UNMETERED
    price_of: Callable[[LLMRequest], ModelPrice | None] | None = getattr(gateway, "price_of", None)
    price = price_of(request) if price_of is not None and budget.watches_cost(node_max_cost) else None
    return TokenMeter(budget, node_key, request.model, node_max_tokens, node_max_cost, price)


class CallDeltas:
    """The delta callback of one call: each delta becomes an `LLMTokenDelta` (and counts against the
    token budgets); a retry an `LLMCallRetrying` (which error, how long the wait); a retried stream's
    restart an `LLMStreamRestarted` (the tokens the broken attempt streamed still count: they were
    generated). A provider running in a worker thread may call any of them there: the event is then
    emitted on the loop."""

    def __init__(self, services: RunServices, span: str, parent_span: str, meter: TokenMeter) -> None:
        self.hub, self.span, self.parent_span, self.meter = services.hub, span, parent_span, meter
        self.loop, self.loop_thread = services.loop, services.loop_thread

    def __call__(self, text: str) -> None:
        if threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(self, text)  # called again, on the loop
            return
        self.hub.llm_delta(text, span_id=self.span, parent_id=self.parent_span)
        if self.meter.on:
            self.meter.add_text(text)

    def restart(self, attempt: int) -> None:
        if threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(self.restart, attempt)  # called again, on the loop
            return
        self.hub.emit(LLMStreamRestarted, span_id=self.span, parent_id=self.parent_span, attempt=attempt)

    def retrying(self, attempt: int, error: LLMError, delay_s: float) -> None:
        if threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(self.retrying, attempt, error, delay_s)  # called again, on the loop
            return
        self.hub.emit(LLMCallRetrying, span_id=self.span, parent_id=self.parent_span, attempt=attempt,
                      error_type=type(error).__name__, error=error.reason, delay_s=round(delay_s, 3))
