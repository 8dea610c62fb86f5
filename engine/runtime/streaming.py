"""What goes on while one model call streams: its deltas become events, its tokens (and their cost)
are counted against the budgets as they arrive.

Invariants: `CallDeltas` is the only delta callback the runtime hands a gateway — each delta is an
`LLMTokenDelta` in the call's span, a retried stream's restart an `LLMStreamRestarted`, emitted on
the loop even when a provider calls from a worker thread; `TokenMeter` counts only when a token or
cost limit applies (`on`), and what it counted is settled exactly once per call.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from engine.events import LLMStreamRestarted, LLMTokenDelta
from engine.llm.prices import ModelPrice
from engine.llm.tokens import count_messages, count_text
from engine.llm.types import LLMResponse
from engine.runtime.budget import BudgetHit, BudgetTracker
from engine.runtime.hub import EventHub


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
        self.stopped = False
        self.call: asyncio.Future[LLMResponse] | None = None

    def cost(self) -> float:
        """What the tokens counted so far cost at the model's price (0.0 without one)."""
        return self.price.cost(self.prompt, self.streamed) if self.price is not None else 0.0

    def start(self, messages: list[dict[str, Any]]) -> None:
        if self.on:
            self.prompt = count_messages(messages, self.model)
            self._add(self.prompt, self.prompt * self.price.input_per_token if self.price else 0.0)

    def add_text(self, text: str) -> None:
        if self.on and self.hit is None and not self.stopped:
            tokens = count_text(text, self.model)
            self.streamed += tokens
            self._add(tokens, tokens * self.price.output_per_token if self.price else 0.0)

    def _add(self, tokens: int, cost: float) -> None:
        try:
            self.budget.stream(self.node_key, tokens, self.node_max, cost, self.node_max_cost)
        except BudgetHit as hit:
            self.hit = hit
            if self.call is not None:
                self.call.cancel()
        except asyncio.CancelledError:  # another node already exceeded the budget: the run is stopping
            self.stopped = True
            if self.call is not None:
                self.call.cancel()

    def settle(self) -> None:
        if self.on:
            self.budget.settle(self.node_key, self.prompt + self.streamed, self.cost())


class CallDeltas:
    """The delta callback of one call: each delta becomes an `LLMTokenDelta` (and counts against the
    token budgets); a retried stream's restart becomes an `LLMStreamRestarted` (the tokens the broken
    attempt streamed still count: they were generated). A provider running in a worker thread may
    call either there: the event is then emitted on the loop."""

    def __init__(self, hub: EventHub, span: str, parent_span: str, meter: TokenMeter) -> None:
        self.hub, self.span, self.parent_span, self.meter = hub, span, parent_span, meter
        self.loop, self.loop_thread = asyncio.get_running_loop(), threading.get_ident()

    def __call__(self, text: str) -> None:
        if threading.get_ident() == self.loop_thread:
            self._delta(text)
        else:
            self.loop.call_soon_threadsafe(self._delta, text)

    def restart(self, attempt: int) -> None:
        if threading.get_ident() == self.loop_thread:
            self._restart(attempt)
        else:
            self.loop.call_soon_threadsafe(self._restart, attempt)

    def _delta(self, text: str) -> None:
        self.hub.emit(LLMTokenDelta, span_id=self.span, parent_id=self.parent_span, text=text)
        self.meter.add_text(text)

    def _restart(self, attempt: int) -> None:
        self.hub.emit(LLMStreamRestarted, span_id=self.span, parent_id=self.parent_span, attempt=attempt)
