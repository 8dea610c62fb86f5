"""Trace contracts a sub-graph node's own file carries, checked over each execution of that sub-graph.

A sub-graph is a workflow of its own: its file may hold contracts about its nodes, named by their ids
in that file. `sub_graph_contracts(documents)` reads them from the documents the run's sub-graph
nodes ran (node path → document: `engine.runtime.sub_graph_versions`); `evaluate_sub_graphs(by_path,
events)` checks them over the events of each execution of the sub-graph node, one pass in all:

- an execution of the sub-graph node at path P runs from its "running" state to its end state (done,
  failed, skipped, cancelled; the run's last event when it never ended); its events are those its
  inner nodes ("P/…") announce in that time, and a budget hit (the run's, or one naming P or an inner
  node) — the sub-graph node's own events are its caller's, not its own;
- a contract's node ids and gates are read in the sub-graph's file ("writer" is "P/writer" in the
  run); roles come from the run's `RunPlanned`; `max_duration` counts from the execution's start;
- one `ContractResult` per (sub-graph, contract), its `sub_graph` the path: broken when any execution
  broke it, at the first violating event of the first such execution ("in its execution n: why").

Invariant: Qt-free and read-only, like `evaluate`; a sub-graph that never ran holds its contracts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine import events as ev
from engine.contracts.evaluate import ContractPass, ContractResult, ContractSourceError, plan_roles, result_of
from engine.graph.contract_form import Contract, read_contracts

_ENDS = frozenset({"done", "failed", "skipped", "cancelled"})


def sub_graph_contracts(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[Contract, ...]]:
    """Node path → the contracts its sub-graph's document holds (paths without any are left out)."""
    out: dict[str, tuple[Contract, ...]] = {}
    for path, document in documents.items():
        if not document.get("contracts"):
            continue
        contracts, problems = read_contracts(document.get("contracts"))
        if problems:
            raise ContractSourceError(f"the contracts of sub-graph {path!r}: "
                                      + "; ".join(p.message for p in problems))
        out[path] = tuple(contracts)
    return out


class _Execution:
    def __init__(self, path: str, number: int, contracts: Sequence[Contract], roles: Mapping[str, str],
                 start: float) -> None:
        self.number = number
        self.check = ContractPass([_in_run(c, f"{path}/") for c in contracts], roles, origin=start,
                                  subject="the sub-graph's execution")


def evaluate_sub_graphs(by_path: Mapping[str, Sequence[Contract]], events: Iterable[ev.Event]) -> list[ContractResult]:
    if not by_path:
        return []
    roles: dict[str, str] = {}
    open_now: dict[str, _Execution] = {}
    counts = dict.fromkeys(by_path, 0)
    found: dict[str, dict[int, tuple[int, str]]] = {path: {} for path in by_path}  # first violation per contract
    last_ts = 0.0

    def close(path: str, end_ts: float) -> None:
        execution = open_now.pop(path)
        for index, (seq, why) in execution.check.finish(end_ts).items():
            found[path].setdefault(index, (seq, f"in its execution {execution.number}: {why}"))

    for event in events:
        kind = type(event)
        last_ts = max(last_ts, event.ts)
        if kind is ev.RunPlanned:
            roles.update(plan_roles(event))  # type: ignore[arg-type]
            continue
        node: str | None = getattr(event, "node_id", None)
        if kind is ev.NodeStateChanged and node is not None and node in by_path:
            state = event.state  # type: ignore[attr-defined]
            if state == "running" and node not in open_now:
                counts[node] += 1
                open_now[node] = _Execution(node, counts[node], by_path[node], roles, event.ts)
            elif state in _ENDS and node in open_now:
                close(node, event.ts)
            continue
        for path, execution in open_now.items():
            if _belongs(kind, node, path):
                execution.check.feed(event)
    for path in list(open_now):
        close(path, last_ts)
    return [result_of(i, c, found[path].get(i), path) for path, contracts in by_path.items()
            for i, c in enumerate(contracts)]


def _belongs(kind: type[ev.Event], node: str | None, path: str) -> bool:
    if node is not None and node.startswith(f"{path}/"):
        return True
    return kind is ev.BudgetExceeded and (node is None or node == path)


def _in_run(contract: Contract, prefix: str) -> Contract:
    """`contract` with the node ids and gates of the sub-graph's file named as the run names them."""
    return dataclasses.replace(contract, nodes=tuple(prefix + n for n in contract.nodes),
                               gates=tuple(prefix + g for g in contract.gates))
