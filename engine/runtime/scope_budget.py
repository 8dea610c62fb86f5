"""A sub-graph's own run limits, held while it runs as a node of another workflow.

A workflow used as a sub-graph keeps the budget of its own run settings (tokens, cost, deadline,
model calls): each execution of the sub-graph node opens a `ScopeBudget` over the node keys below it
("sub/…"), which counts their calls — while they stream and when they end — and hits as soon as one
of its limits is crossed, like the run's own budget (the run ends `budget_exceeded`, naming the
sub-graph, the inner node and the figures). Its deadline is a timer around the execution
(`roles.subgraph.run_subgraph`). Limits of 0 are no limit; a sub-graph with none opens no scope.

Invariant: the scope sees exactly the usage the run's tracker sees for the nodes it covers (the
tracker calls it from the same places: `before_call`, `stream`, `settle`, `commit`, `after_call`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NoReturn

from engine.runtime.plan import BudgetLimits

BudgetKind = Literal["tokens", "cost_usd", "deadline_s", "model_calls"]
Hit = Callable[[BudgetKind, float, float, str, str], NoReturn]  # (budget, limit, actual, node_id, scope)


@dataclass(slots=True)
class ScopeBudget:
    key: str  # the sub-graph node's key; it covers the keys that start with `key + "/"`
    limits: BudgetLimits
    tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    live_tokens: int = 0
    live_cost: float = 0.0

    @property
    def name(self) -> str:
        return f"sub-graph {self.key}"

    def covers(self, node_id: str) -> bool:
        return node_id.startswith(self.key + "/")

    def before_call(self, node_id: str, hit: Hit) -> None:
        if self.limits.max_model_calls and self.calls >= self.limits.max_model_calls:
            hit("model_calls", self.limits.max_model_calls, self.calls + 1, node_id, self.name)
        self.calls += 1

    def stream(self, node_id: str, tokens: int, cost: float, hit: Hit) -> None:
        self.live_tokens += tokens
        self.live_cost += cost
        self.check(node_id, hit)

    def settle(self, tokens: int, cost: float) -> None:
        self.live_tokens -= tokens
        self.live_cost -= cost

    def add(self, tokens: int, cost: float) -> None:
        self.tokens += tokens
        self.cost_usd += cost

    def check(self, node_id: str, hit: Hit) -> None:
        tokens, cost = self.tokens + self.live_tokens, self.cost_usd + self.live_cost
        if self.limits.max_tokens and tokens > self.limits.max_tokens:
            hit("tokens", self.limits.max_tokens, tokens, node_id, self.name)
        if self.limits.max_cost_usd and cost > self.limits.max_cost_usd:
            hit("cost_usd", self.limits.max_cost_usd, round(cost, 6), node_id, self.name)


def limited(limits: BudgetLimits) -> bool:
    """Whether `limits` hold anything a scope counts (a deadline alone is a timer, not a scope)."""
    return bool(limits.max_tokens or limits.max_cost_usd or limits.max_model_calls)
