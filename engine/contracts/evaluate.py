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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.contracts.checkers import CHECKERS, Checker
from engine.graph.contract_form import Contract, contract_to_dict


@dataclass(frozen=True, slots=True)
class ContractResult:
    index: int
    kind: str
    title: str
    contract: dict[str, Any]
    passed: bool
    seq: int | None = None
    reason: str = ""

    def to_record(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "title": self.title, "contract": self.contract,
                "passed": self.passed, "seq": self.seq, "reason": self.reason}

    def line(self) -> str:
        """One line saying how the contract fared: `PASS title` or `FAIL title: at event N: reason`."""
        if self.passed:
            return f"PASS  {self.title}"
        return f"FAIL  {self.title}: at event {self.seq}: {self.reason}"


def evaluate(contracts: Sequence[Contract], events: Iterable[ev.Event], *,
             end_ts: float | None = None) -> list[ContractResult]:
    """How `events` (one run's, in seq order) fare against `contracts`. `end_ts` is when the run ended
    when its `RunFinished` is not among the events (the run is ending as it is checked)."""
    if not contracts:
        return []
    roles: dict[str, str] = {}  # filled from RunPlanned; the checkers' scopes read it as it fills
    checkers = [CHECKERS[c.kind](c, roles) for c in contracts]
    every = [(i, c) for i, c in enumerate(checkers) if c.kinds is None]
    routes: dict[type[ev.Event], list[tuple[int, Checker]]] = {}
    for index, checker in enumerate(checkers):
        for kind in checker.kinds or ():
            routes.setdefault(kind, list(every)).append((index, checker))
    broken: dict[int, tuple[int, str]] = {}
    last_seq, last_ts = 0, 0.0
    for event in events:
        kind = type(event)
        if kind is ev.ContractsChecked:
            continue
        if isinstance(event, ev.RunPlanned):
            roles.update((str(n[0]), str(n[2])) for n in event.nodes if len(n) >= 3)
        elif isinstance(event, ev.RunFinished):
            end_ts = event.duration_s if end_ts is None else end_ts
        last_seq = event.seq
        if event.ts > last_ts:
            last_ts = event.ts
        for index, checker in routes.get(kind, every):
            if index not in broken and (reason := checker.feed(event)) is not None:
                broken[index] = (event.seq, reason)
    end = last_ts if end_ts is None else end_ts
    for index, checker in enumerate(checkers):
        if index not in broken and (reason := checker.finish(end)) is not None:
            broken[index] = (last_seq, reason)
    return [_result(i, c, broken.get(i)) for i, c in enumerate(contracts)]


def _result(index: int, contract: Contract, broken: tuple[int, str] | None) -> ContractResult:
    data = contract_to_dict(contract)
    if broken is None:
        return ContractResult(index, contract.kind, contract.title(), data, True)
    return ContractResult(index, contract.kind, contract.title(), data, False, broken[0], broken[1])


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
                                  str(raw.get("reason", ""))))
    return out
