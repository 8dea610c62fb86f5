"""One checker per contract kind: fed a run's events in seq order, it reports the first that breaks it.

A checker's `feed(event)` returns why the event violates the contract (a sentence), or None; it is
fed only events of its `kinds` (all events when None), so the token deltas that make most of a run
cost nothing;
`finish(end_ts)` is asked once the events are spent (for what only the end can tell: a run still
going past its allowed time). `Scope` says which nodes a contract looks at, by id or by role.

Invariants: pure and Qt-free; a checker reads each event once, in order, and keeps only counters
and the few seqs it must remember; it names node ids as the events do (a sub-graph's inner nodes
as "subgraph/inner", in scope when their sub-graph node is).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Mapping
from typing import ClassVar

from engine import events as ev
from engine.graph.contract_form import Contract

_APPROVALS = ("approve", "edit")


class Scope:
    """The nodes a contract looks at: those it names, those of the roles it names, or all."""

    def __init__(self, contract: Contract, roles: Mapping[str, str]) -> None:
        self.nodes = contract.nodes
        self.roles = contract.scoped_roles()
        self.everything = not self.nodes and not self.roles
        self._roles = roles

    def holds(self, node_id: str | None) -> bool:
        if node_id is None:
            return self.everything
        if self.everything:
            return True
        if self._roles.get(node_id) in self.roles:
            return True
        return any(node_id == n or node_id.startswith(f"{n}/") for n in self.nodes)


class Checker:
    kinds: ClassVar[tuple[type[ev.Event], ...] | None] = None  # the event types it reads (None: all)
    origin = 0.0  # when the events it is fed began: a run's 0, a sub-graph execution's start
    subject = "the run"  # what those events are, as a reason names it

    def __init__(self, contract: Contract, roles: Mapping[str, str]) -> None:
        self.contract = contract
        self.roles = roles
        self.scope = Scope(contract, roles)
        self.limit = contract.limit if contract.limit is not None else 0.0

    def feed(self, event: ev.Event) -> str | None:
        return None

    def finish(self, end_ts: float) -> str | None:
        return None


class ReviewedBeforeOutput(Checker):
    kinds = (ev.NodeOutput, ev.VerdictIssued)

    def __init__(self, contract: Contract, roles: Mapping[str, str]) -> None:
        super().__init__(contract, roles)
        self.unreviewed: dict[int, str] = {}  # executor output seq → node id

    def feed(self, event: ev.Event) -> str | None:
        if type(event) is ev.NodeOutput:
            if self.roles.get(event.node_id) == "output" and self.unreviewed:
                seq, node = next(iter(self.unreviewed.items()))
                return (f"the output of {node!r} (event {seq}) had no critic's verdict when the Output "
                        f"{event.node_id!r} produced the result")
            if self.roles.get(event.node_id) != "output" and self.scope.holds(event.node_id):
                self.unreviewed[event.seq] = event.node_id
        elif type(event) is ev.VerdictIssued and self.roles.get(event.node_id) == "critic":
            if event.artifact_seq in self.unreviewed:
                del self.unreviewed[event.artifact_seq]
            else:
                subject = event.subject_node_id
                self.unreviewed = {s: n for s, n in self.unreviewed.items() if n != subject}
        return None


class NoCallAfterBudget(Checker):
    kinds = (ev.BudgetExceeded, ev.LLMCallStarted)
    hit: ev.BudgetExceeded | None = None

    def feed(self, event: ev.Event) -> str | None:
        if type(event) is ev.BudgetExceeded and self.hit is None:
            self.hit = event
        elif type(event) is ev.LLMCallStarted and self.hit is not None and self.scope.holds(event.node_id):
            return (f"{event.node_id!r} started a model call after the {self.hit.budget} budget was hit "
                    f"(event {self.hit.seq})")
        return None


class MaxCalls(Checker):
    kinds = (ev.LLMCallStarted,)
    count = 0

    def feed(self, event: ev.Event) -> str | None:
        if type(event) is ev.LLMCallStarted and self.scope.holds(event.node_id):
            self.count += 1
            if self.count > self.limit:
                return f"model call {self.count} (by {event.node_id!r}) is over the limit of {self.limit:g}"
        return None


class MaxUsage(Checker):
    """At most $X (`max_cost`) or N tokens (`max_tokens`), counted as each model call ends."""

    kinds = (ev.LLMCallFinished,)
    total = 0.0

    def feed(self, event: ev.Event) -> str | None:
        if type(event) is ev.LLMCallFinished and self.scope.holds(event.node_id):
            if self.contract.kind == "max_cost":
                self.total += event.cost_usd
                if self.total > self.limit:
                    return f"the cost reached ${self.total:.6g} with this call of {event.node_id!r}, over ${self.limit:g}"
            else:
                self.total += event.tokens_in + event.tokens_out
                if self.total > self.limit:
                    return (f"the tokens reached {self.total:,.0f} with this call of {event.node_id!r}, "
                            f"over {self.limit:,.0f}")
        return None


class ApproveScore(Checker):
    kinds = (ev.VerdictIssued,)

    def feed(self, event: ev.Event) -> str | None:
        if (type(event) is ev.VerdictIssued and event.decision == "approve" and self.scope.holds(event.node_id)
                and event.score < self.limit):
            return f"{event.node_id!r} approved with a score of {event.score:g}, below {self.limit:g}"
        return None


class GatedToolWrites(Checker):
    kinds = (ev.HumanDecisionMade, ev.ToolCallStarted)
    approved_at: int | None = None

    def feed(self, event: ev.Event) -> str | None:
        if type(event) is ev.HumanDecisionMade and event.decision in _APPROVALS and self._is_gate(event.node_id):
            if self.approved_at is None:
                self.approved_at = event.seq
        elif (type(event) is ev.ToolCallStarted and self.approved_at is None and self.scope.holds(event.node_id)
              and any(fnmatch.fnmatchcase(event.tool, pattern) for pattern in self.contract.tools)):
            return f"{event.node_id!r} called the writing tool {event.tool!r} before any human gate approved"
        return None

    def _is_gate(self, node_id: str) -> bool:
        gates = self.contract.gates
        return node_id in gates if gates else self.roles.get(node_id) == "human_gate"


class MaxDuration(Checker):
    def feed(self, event: ev.Event) -> str | None:
        if event.ts - self.origin > self.limit:
            return f"{self.subject} was still going at {event.ts - self.origin:.3f} s, past {self.limit:g} s"
        return None

    def finish(self, end_ts: float) -> str | None:
        if end_ts - self.origin > self.limit:
            return f"{self.subject} ended at {end_ts - self.origin:.3f} s, past {self.limit:g} s"
        return None


CHECKERS: dict[str, Callable[[Contract, Mapping[str, str]], Checker]] = {
    "reviewed_before_output": ReviewedBeforeOutput,
    "no_call_after_budget": NoCallAfterBudget,
    "max_calls": MaxCalls,
    "max_cost": MaxUsage,
    "max_tokens": MaxUsage,
    "approve_score": ApproveScore,
    "gated_tool_writes": GatedToolWrites,
    "max_duration": MaxDuration,
}
