"""Evaluating a workflow's trace contracts over a run's events.

`evaluate(contracts, events)` feeds the events, in seq order, to one checker per contract
(`engine.contracts.checkers`) and returns one `ContractResult` per contract: passed, or the first
event (seq) that breaks it and why. `results_event_fields` / `results_from_event` turn results into
the fields of a `ContractsChecked` event and back, so a run's stream carries them.

Invariants: one pass over the events, each event handed only to the checkers that read its type
(100,000 events, eight contracts: ~0.1 s), each checker stops at its first violation; node roles come
from the run's `RunPlanned` event (the plan's nodes, sub-graph nodes included); a `ContractsChecked`
event already in the events is ignored (re-checking a checked run gives the same answer). Qt-free.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.contracts.checkers import CHECKERS, Checker
from engine.graph.contract_form import Contract, contract_to_dict


class ContractSourceError(Exception):
    """The contracts a run is to be checked against cannot be read."""


@dataclass(frozen=True, slots=True)
class ContractResult:
    index: int
    kind: str
    title: str
    contract: dict[str, Any]
    passed: bool
    seq: int | None = None
    reason: str = ""
    sub_graph: str = ""  # the sub-graph node's path whose own file holds the contract ("": the run's workflow)

    def to_record(self) -> dict[str, Any]:
        record = {"index": self.index, "kind": self.kind, "title": self.title, "contract": self.contract,
                  "passed": self.passed, "seq": self.seq, "reason": self.reason}
        if self.sub_graph:
            record["sub_graph"] = self.sub_graph
        return record

    @property
    def where(self) -> str:
        """Whose contract it is: "" for the run's workflow, "sub-graph 'path'" for a sub-graph's file."""
        return f"sub-graph {self.sub_graph!r}" if self.sub_graph else ""

    def line(self) -> str:
        """One line saying how the contract fared: `PASS title` or `FAIL title: at event N: reason`
        (a sub-graph's contract: `[sub-graph 'path'] title`)."""
        title = f"[{self.where}] {self.title}" if self.sub_graph else self.title
        if self.passed:
            return f"PASS  {title}"
        return f"FAIL  {title}: at event {self.seq}: {self.reason}"


class ContractPass:
    """One pass of `contracts` over events fed in seq order: a checker per contract, each event handed only
    to the checkers that read its type, each checker stopped at its first violation. `roles` (node id →
    role) is read as it fills; `origin` is when the events began and `subject` what they are (a sub-graph's
    execution: `engine.contracts.sub_graphs`)."""

    def __init__(self, contracts: Sequence[Contract], roles: Mapping[str, str], origin: float = 0.0,
                 subject: str = "the run") -> None:
        self.checkers = [CHECKERS[c.kind](c, roles) for c in contracts]
        every = [(i, c) for i, c in enumerate(self.checkers) if c.kinds is None]
        self.every = every
        self.routes: dict[type[ev.Event], list[tuple[int, Checker]]] = {}
        for index, checker in enumerate(self.checkers):
            checker.origin, checker.subject = origin, subject
            for kind in checker.kinds or ():
                self.routes.setdefault(kind, list(every)).append((index, checker))
        self.broken: dict[int, tuple[int, str]] = {}
        self.last_seq = 0

    def feed(self, event: ev.Event) -> None:
        self.last_seq = event.seq
        for index, checker in self.routes.get(type(event), self.every):
            if index not in self.broken and (reason := checker.feed(event)) is not None:
                self.broken[index] = (event.seq, reason)

    def finish(self, end_ts: float) -> dict[int, tuple[int, str]]:
        """Index → (seq, why) of each broken contract, once what only the end can tell is asked."""
        for index, checker in enumerate(self.checkers):
            if index not in self.broken and (reason := checker.finish(end_ts)) is not None:
                self.broken[index] = (self.last_seq, reason)
        return self.broken


def evaluate(contracts: Sequence[Contract], events: Iterable[ev.Event], *,
             end_ts: float | None = None) -> list[ContractResult]:
    """How `events` (one run's, in seq order) fare against `contracts`. `end_ts` is when the run ended
    when its `RunFinished` is not among the events (the run is ending as it is checked)."""
    if not contracts:
        return []
    roles: dict[str, str] = {}  # filled from RunPlanned; the checkers' scopes read it as it fills
    check = ContractPass(contracts, roles)
    last_ts = 0.0
    for event in events:
        kind = type(event)
        if kind is ev.ContractsChecked:
            continue
        if kind is ev.RunPlanned:
            roles.update(plan_roles(event))  # type: ignore[arg-type]
        elif kind is ev.RunFinished:
            end_ts = event.duration_s if end_ts is None else end_ts  # type: ignore[attr-defined]
        if event.ts > last_ts:
            last_ts = event.ts
        check.feed(event)
    broken = check.finish(last_ts if end_ts is None else end_ts)
    return [result_of(i, c, broken.get(i)) for i, c in enumerate(contracts)]


def plan_roles(planned: ev.RunPlanned) -> dict[str, str]:
    """Node id (sub-graph nodes' as "subgraph/inner") → role, from the run's `RunPlanned`."""
    return {str(n[0]): str(n[2]) for n in planned.nodes if len(n) >= 3}


def result_of(index: int, contract: Contract, broken: tuple[int, str] | None, sub_graph: str = "") -> ContractResult:
    data = contract_to_dict(contract)
    if broken is None:
        return ContractResult(index, contract.kind, contract.title(), data, True, sub_graph=sub_graph)
    return ContractResult(index, contract.kind, contract.title(), data, False, broken[0], broken[1], sub_graph)


def results_event_fields(results: Sequence[ContractResult]) -> dict[str, Any]:
    """The fields of the `ContractsChecked` event that records `results`."""
    return {"results": [r.to_record() for r in results], "violated": sum(not r.passed for r in results)}


def results_from_event(event: ev.ContractsChecked) -> list[ContractResult]:
    out: list[ContractResult] = []
    for raw in event.results:
        seq = raw.get("seq")
        out.append(ContractResult(int(raw.get("index", len(out))), str(raw.get("kind", "")),
                                  str(raw.get("title", "")), dict(raw.get("contract") or {}),
                                  bool(raw.get("passed")), seq if isinstance(seq, int) else None,
                                  str(raw.get("reason", "")), str(raw.get("sub_graph") or "")))
    return out
