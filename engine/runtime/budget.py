"""Live budget accounting for a run and its nodes: tokens, cost, wall-clock deadline, model calls.

Invariant: every LLM call passes `before_call` (model calls, deadline) and `after_call` (tokens, cost);
the first limit crossed raises `BudgetHit`, which names the budget, the node and the figures.
Node limits come from the node's `max_tokens_budget` / `max_cost_usd` / `max_calls_budget` params
(its `CallSettings`; 0 = none; counted over the whole run, re-executions included, in `nodes` —
which holds only the nodes with a limit of their own, the only ones whose usage is read); a node's
`deadline_s` is a timer around its execution (`within_deadline`, as a sub-graph's is).
The run's deadline is checked before each call against the run's clock less the time the run held.
The run's limits are its plan's `Budget` (the workflow's run settings), counted and checked by a
`BudgetScope` (`run`) — the same code that holds a sub-graph's own run limits over its inner nodes
while it runs (`budget_scope`, `scopes`).
Token and cost limits are also enforced while calls stream: `stream` counts a call's tokens in
flight (its prompt, then each streamed delta) and, when the model's per-token price is known, their
cost, on top of what finished calls used, across concurrent calls, and raises `BudgetHit` the moment
a run or node limit is crossed; `settle` removes a call's in-flight count when it ends (its real
usage then goes through `after_call` or `commit`). A model without a known price is held to its
cost limit after each call only.
A run's budget is exceeded once: the first hit raises `BudgetHit` (which ends the run); a limit
crossed again by another node meanwhile raises that same first `BudgetHit` there, so whichever node's
exception ends the graph first, the run's reason is the first hit (concurrent hits never race to be
it). Never a `CancelledError`: raised where no one cancelled, it would end the run "cancelled by
the user", with no budget recorded.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import NoReturn, TypeVar

from engine.budget import UNITS, Budget, BudgetKind
from engine.runtime.budget_scope import BudgetScope, Usage
from engine.runtime.nodesetup import CallSettings

T = TypeVar("T")


class BudgetHit(Exception):
    def __init__(self, budget: BudgetKind, limit: float, actual: float, node_id: str | None, scope: str) -> None:
        self.budget, self.limit, self.actual, self.node_id = budget, limit, actual, node_id
        unit = UNITS[budget]
        where = f" at node {node_id}" if node_id else ""
        super().__init__(f"{scope} {budget} budget exceeded{where}: {actual:g} {unit} > limit {limit:g} {unit}")


class BudgetTracker:
    def __init__(self, limits: Budget) -> None:
        self.limits = limits
        self.run = BudgetScope("run", limits)  # the run's limits over every node; its usage is the run's
        self.nodes: defaultdict[str, Usage] = defaultdict(Usage)
        self.exceeded: BudgetHit | None = None
        self.live_nodes: defaultdict[str, int] = defaultdict(int)  # tokens of a node's calls still streaming
        self.live_cost_nodes: defaultdict[str, float] = defaultdict(float)
        # whether the run has any limit (tokens, cost, deadline, model calls); read after every call
        self.limited = limits.any
        # whether every call is counted while it streams (a run token or cost limit)
        self.meters = bool(limits.max_tokens or limits.max_cost_usd)
        # the run's time as its deadline counts it, holds left out (the run's `pausing.RunDeadline`)
        self.deadline_elapsed: Callable[[], float] = _not_started
        self.scopes: list[BudgetScope] = []  # the limits of sub-graphs running now (`open_scope`)

    @property
    def total(self) -> Usage:
        """What the run's finished calls used."""
        return self.run.used

    def hit(self, budget: BudgetKind, limit: float, actual: float, node_id: str, scope: str) -> NoReturn:
        """Record that `budget` is exceeded (for limits checked elsewhere, e.g. a node's deadline)."""
        self._hit(budget, limit, actual, node_id, scope)

    def _hit(self, budget: BudgetKind, limit: float, actual: float, node_id: str, scope: str) -> NoReturn:
        if self.exceeded is not None:  # the run is already stopping for its first hit: that one again
            raise self.exceeded
        self.exceeded = BudgetHit(budget, limit, actual, node_id, scope)
        raise self.exceeded

    async def within_deadline(self, work: Awaitable[T], limit_s: float | None, node_id: str, scope: str) -> T:
        """`work`'s result within `limit_s` (None or 0: no limit); past it, `work` is cut off (its calls
        cancelled, their spans closed) and the budget is hit — a node's or a sub-graph's deadline."""
        started = time.monotonic()
        window = asyncio.timeout(limit_s or None)
        try:
            async with window:
                return await work
        except TimeoutError:
            if not window.expired():
                raise
            self._hit("deadline_s", limit_s or 0.0, round(time.monotonic() - started, 3), node_id, scope)

    def watches_tokens(self, node_max_tokens: int) -> bool:
        """Whether a call of a node with this limit needs live token counting."""
        return bool(self.limits.max_tokens or node_max_tokens or any(s.limits.max_tokens for s in self.scopes))

    def watches_cost(self, node_max_cost: float) -> bool:
        """Whether a call of a node with this limit needs its cost counted while it streams."""
        return bool(self.limits.max_cost_usd or node_max_cost or any(s.limits.max_cost_usd for s in self.scopes))

    def open_scope(self, key: str, limits: Budget) -> BudgetScope | None:
        """Hold the nodes below sub-graph node `key` to its own `limits` until `close_scope`."""
        if not limits.counted:  # a deadline alone is a timer, not a scope
            return None
        scope = BudgetScope(f"sub-graph {key}", limits, prefix=key + "/")
        self.scopes.append(scope)
        return scope

    def close_scope(self, scope: BudgetScope | None) -> None:
        if scope is not None and scope in self.scopes:
            self.scopes.remove(scope)

    def _scopes_of(self, node_id: str) -> list[BudgetScope]:
        return [s for s in self.scopes if s.covers(node_id)]

    def stream(self, node_id: str, tokens: int, node_max_tokens: int, cost: float = 0.0,
               node_max_cost: float = 0.0) -> None:
        """Count `tokens` (costing `cost`) of a call in flight; BudgetHit as soon as a limit is crossed."""
        if self.scopes:
            for scope in self._scopes_of(node_id):
                scope.stream(node_id, tokens, cost, self._hit)
        self.run.stream(node_id, tokens, cost, self._hit)
        self.live_nodes[node_id] += tokens
        if node_max_tokens:
            node_now = self.nodes[node_id].tokens + self.live_nodes[node_id]
            if node_now > node_max_tokens:
                self._hit("tokens", node_max_tokens, node_now, node_id, "node")
        if not cost:
            return
        self.live_cost_nodes[node_id] += cost
        if node_max_cost:
            node_cost = self.nodes[node_id].cost_usd + self.live_cost_nodes[node_id]
            if node_cost > node_max_cost:
                self._hit("cost_usd", node_max_cost, round(node_cost, 6), node_id, "node")

    def settle(self, node_id: str, tokens: int, cost: float = 0.0) -> None:
        """The call that streamed `tokens` (costing `cost`) ended: they are no longer in flight."""
        self.run.settle(tokens, cost)
        self.live_nodes[node_id] -= tokens
        self.live_cost_nodes[node_id] -= cost
        if self.scopes:
            for scope in self._scopes_of(node_id):
                scope.settle(tokens, cost)

    def commit(self, node_id: str, tokens_in: int, tokens_out: int, cost_usd: float,
               node_limited: bool) -> None:
        """Add a call's usage without checking limits (a call cut off by a budget, or cancelled)."""
        self.run.add(tokens_in, tokens_out, cost_usd)
        if node_limited:
            mine = self.nodes[node_id]
            mine.tokens_in += tokens_in
            mine.tokens_out += tokens_out
            mine.cost_usd += cost_usd
        if self.scopes:
            for scope in self._scopes_of(node_id):
                scope.add(tokens_in, tokens_out, cost_usd)

    def before_call(self, node_id: str, node: CallSettings) -> None:
        """A call of `node_id` is about to start (one model call)."""
        lim = self.limits
        if lim.deadline_s and (elapsed_s := self.deadline_elapsed()) > lim.deadline_s:
            self._hit("deadline_s", lim.deadline_s, round(elapsed_s, 3), node_id, "run")
        if lim.max_model_calls:
            self.run.before_call(node_id, self._hit)
        else:  # the common case, once per model call: only count it
            self.run.used.calls += 1
        if node.max_calls and self.nodes[node_id].calls >= node.max_calls:
            self._hit("model_calls", node.max_calls, self.nodes[node_id].calls + 1, node_id, "node")
        if self.scopes:
            for scope in self._scopes_of(node_id):
                scope.before_call(node_id, self._hit)
        if node.limited:
            self.nodes[node_id].calls += 1

    def after_call(self, node_id: str, tokens_in: int, tokens_out: int, cost_usd: float,
                   node: CallSettings) -> None:
        if not (self.limited or node.limited or self.scopes):  # nothing to hold the call against: count it
            total = self.run.used
            total.tokens_in += tokens_in
            total.tokens_out += tokens_out
            total.cost_usd += cost_usd
            return
        self.commit(node_id, tokens_in, tokens_out, cost_usd, node.limited)
        if self.scopes:
            for scope in self._scopes_of(node_id):
                scope.check(node_id, self._hit)
        self.run.check(node_id, self._hit)
        if not node.limited:
            return
        mine = self.nodes[node_id]
        if node.max_tokens and mine.tokens > node.max_tokens:
            self._hit("tokens", node.max_tokens, mine.tokens, node_id, "node")
        if node.max_cost_usd and mine.cost_usd > node.max_cost_usd:
            self._hit("cost_usd", node.max_cost_usd, round(mine.cost_usd, 6), node_id, "node")


def _not_started() -> float:
    return 0.0
