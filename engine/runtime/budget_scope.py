"""What one budget holds a set of nodes to: the run's (every node) or a sub-graph's (the nodes below it).

A `BudgetScope` counts the model calls, tokens and cost of the nodes it covers — while calls stream
and when they end — and hits as soon as one of its `Budget`'s limits is crossed. The run's tracker
(`runtime.budget.BudgetTracker`) holds one for the run (`run`, its usage is the run's totals) and
opens one per execution of a sub-graph node whose workflow has limits of its own ("sub/…": a
workflow used as a sub-graph keeps the budget of its own run settings), so the run's and a
sub-graph's limits are checked by the same code. A deadline is not counted here: the run's is read
against its clock before each call, a sub-graph's is a timer around its execution
(`roles.subgraph.run_subgraph`). Limits of 0 are no limit; a sub-graph with none opens no scope.

Invariant: a scope sees exactly the usage the tracker sees for the nodes it covers (the tracker calls
it from the same places: `before_call`, `stream`, `settle`, `add`, `check`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from engine.budget import Budget, BudgetKind

Hit = Callable[[BudgetKind, float, float, str, str], NoReturn]  # (budget, limit, actual, node_id, scope)


@dataclass(slots=True)
class Usage:
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    calls: int = 0

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


@dataclass(slots=True)
class BudgetScope:
    name: str  # what a budget stop names: "run", "sub-graph <key>"
    limits: Budget
    prefix: str = ""  # it covers the node keys that start with this ("": every node)
    used: Usage = field(default_factory=Usage)  # what finished calls used
    live_tokens: int = 0  # tokens of calls still streaming
    live_cost: float = 0.0  # estimated cost of calls still streaming

    def covers(self, node_id: str) -> bool:
        return node_id.startswith(self.prefix)

    def before_call(self, node_id: str, hit: Hit) -> None:
        """A call is about to start: one more model call, unless that is one too many."""
        limit = self.limits.max_model_calls
        if limit and self.used.calls >= limit:
            hit("model_calls", limit, self.used.calls + 1, node_id, self.name)
        self.used.calls += 1

    def stream(self, node_id: str, tokens: int, cost: float, hit: Hit) -> None:
        self.live_tokens += tokens
        self.live_cost += cost
        self.check(node_id, hit)

    def settle(self, tokens: int, cost: float) -> None:
        self.live_tokens -= tokens
        self.live_cost -= cost

    def add(self, tokens_in: int, tokens_out: int, cost: float) -> None:
        used = self.used
        used.tokens_in += tokens_in
        used.tokens_out += tokens_out
        used.cost_usd += cost

    def check(self, node_id: str, hit: Hit) -> None:
        """Hit when what finished calls used and calls in flight hold is past a token or cost limit."""
        limits = self.limits
        if limits.max_tokens and (tokens := self.used.tokens + self.live_tokens) > limits.max_tokens:
            hit("tokens", limits.max_tokens, tokens, node_id, self.name)
        if limits.max_cost_usd and (cost := self.used.cost_usd + self.live_cost) > limits.max_cost_usd:
            hit("cost_usd", limits.max_cost_usd, round(cost, 6), node_id, self.name)
