"""Live budget accounting for a run and its nodes: tokens, cost, wall-clock deadline, turns.

Invariant: every LLM call passes `before_call` (turns, deadline) and `after_call` (tokens, cost);
the first limit crossed raises `BudgetHit`, which names the budget, the node and the figures.
Node limits come from the node's `max_tokens_budget` / `max_cost_usd` params (0 = none).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from engine.runtime.plan import BudgetLimits

BudgetKind = Literal["tokens", "cost_usd", "deadline_s", "max_turns"]
_UNITS = {"tokens": "tokens", "cost_usd": "USD", "deadline_s": "s", "max_turns": "turns"}


class BudgetHit(Exception):
    def __init__(self, budget: BudgetKind, limit: float, actual: float, node_id: str | None, scope: str) -> None:
        self.budget, self.limit, self.actual, self.node_id = budget, limit, actual, node_id
        unit = _UNITS[budget]
        where = f" at node {node_id}" if node_id else ""
        super().__init__(f"{scope} {budget} budget exceeded{where}: {actual:g} {unit} > limit {limit:g} {unit}")


@dataclass(slots=True)
class Usage:
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    turns: int = 0

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


class BudgetTracker:
    def __init__(self, limits: BudgetLimits) -> None:
        self.limits = limits
        self.total = Usage()
        self.nodes: defaultdict[str, Usage] = defaultdict(Usage)

    def limits_record(self) -> dict[str, float]:
        lim = self.limits
        return {"max_tokens": lim.max_tokens, "max_cost_usd": lim.max_cost_usd,
                "deadline_s": lim.deadline_s, "max_turns": lim.max_turns}

    def before_call(self, node_id: str, elapsed_s: float) -> None:
        lim = self.limits
        if lim.deadline_s and elapsed_s > lim.deadline_s:
            raise BudgetHit("deadline_s", lim.deadline_s, round(elapsed_s, 3), node_id, "run")
        if lim.max_turns and self.total.turns >= lim.max_turns:
            raise BudgetHit("max_turns", lim.max_turns, self.total.turns + 1, node_id, "run")
        self.total.turns += 1
        self.nodes[node_id].turns += 1

    def after_call(self, node_id: str, tokens_in: int, tokens_out: int, cost_usd: float,
                   node_max_tokens: int, node_max_cost: float) -> None:
        for usage in (self.total, self.nodes[node_id]):
            usage.tokens_in += tokens_in
            usage.tokens_out += tokens_out
            usage.cost_usd += cost_usd
        lim, mine = self.limits, self.nodes[node_id]
        if lim.max_tokens and self.total.tokens > lim.max_tokens:
            raise BudgetHit("tokens", lim.max_tokens, self.total.tokens, node_id, "run")
        if lim.max_cost_usd and self.total.cost_usd > lim.max_cost_usd:
            raise BudgetHit("cost_usd", lim.max_cost_usd, round(self.total.cost_usd, 6), node_id, "run")
        if node_max_tokens and mine.tokens > node_max_tokens:
            raise BudgetHit("tokens", node_max_tokens, mine.tokens, node_id, "node")
        if node_max_cost and mine.cost_usd > node_max_cost:
            raise BudgetHit("cost_usd", node_max_cost, round(mine.cost_usd, 6), node_id, "node")
