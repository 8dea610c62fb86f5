"""Checking a stored run's trace against contracts: those of the workflow version it ran, or given ones.

`recorded_contracts(store, run)` reads the contracts of the workflow version the run recorded (an
older version is migrated as a file would be); `check_stored_run(store, run, contracts)` evaluates
contracts over the run's stored events, and the contracts of the sub-graph versions it recorded over
their executions. `triadic check` and the window's Runs dock use these.

Invariants: read-only (the store is never written); a run whose workflow version is missing or
unreadable raises `ContractSourceError` saying which, never a bare KeyError or a schema traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.contracts.evaluate import ContractResult, ContractSourceError, evaluate
from engine.contracts.sub_graphs import evaluate_sub_graphs, sub_graph_contracts
from engine.events import Event
from engine.graph.contract_form import Contract


class _Run(Protocol):
    id: str
    workflow_hash: str


class _Store(Protocol):
    def workflow_version(self, workflow_hash: str) -> dict[str, Any] | None: ...

    def iter_events(self, run_id: str) -> Any: ...


def recorded_contracts(store: _Store, run: _Run) -> tuple[Contract, ...]:
    from engine.graph.format import workflow_from_dict
    from engine.graph.problems import WorkflowFileError

    doc = store.workflow_version(run.workflow_hash)
    if doc is None:
        raise ContractSourceError(f"the workflow version {run.workflow_hash[:12]} of run {run.id[:12]} is not in "
                                  "the store (check it against a file with --workflow)")
    try:
        return workflow_from_dict(doc, source=f"workflow version {run.workflow_hash[:12]}").contracts
    except WorkflowFileError as exc:
        raise ContractSourceError(str(exc)) from None


def check_stored_run(store: _Store, run: _Run, contracts: Sequence[Contract]) -> list[ContractResult]:
    """`contracts` over the run's events, then the contracts of each sub-graph version the run recorded
    over that sub-graph's executions (`engine.contracts.sub_graphs`)."""
    from engine.runtime.sub_graph_versions import SubGraphVersionMissing, recorded_documents, recorded_hashes

    events: list[Event] = list(store.iter_events(run.id))
    try:
        documents = recorded_documents(store, recorded_hashes(events[0] if events else None))
    except SubGraphVersionMissing as exc:
        raise ContractSourceError(str(exc)) from None
    return evaluate(contracts, events) + evaluate_sub_graphs(sub_graph_contracts(documents), events)
