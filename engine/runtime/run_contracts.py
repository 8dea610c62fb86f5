"""The run's own check of its workflow's trace contracts, announced just before `RunFinished`.

`await check_contracts(hub, plan, span)` reads the contracts of the run's workflow document (the
frozen copy the plan holds) and of its sub-graphs' documents, evaluates them (a sub-graph's over each of
its executions) over the run's events so far (`engine.contracts`) in a
worker thread (a long run's events take a while: the loop — the window's, in the GUI — goes on) and
emits one `ContractsChecked` event in the run's span, so the store, every view and export see the
results as part of the run. A workflow whose file and sub-graphs hold no contracts announces nothing.

Invariant: never stops the run from finishing: contracts the plan's document cannot give (it was
compiled from a valid workflow, so this is a bug) or a checker that fails are reported as an error
log event, and `RunFinished` follows all the same.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from engine.contracts import (
    ContractResult,
    evaluate,
    evaluate_sub_graphs,
    results_event_fields,
    sub_graph_contracts,
)
from engine.events import ContractsChecked, LogMessage
from engine.graph.contract_form import read_contracts
from engine.runtime.hub import EventHub
from engine.runtime.sub_graph_versions import sub_graph_documents

if TYPE_CHECKING:
    from engine.runtime.plan import RunPlan


async def check_contracts(hub: EventHub, plan: RunPlan, span: str) -> None:
    document = plan.document
    documents = {path: doc for path, (_, doc) in sub_graph_documents(plan).items()}
    if not document.get("contracts") and not any(doc.get("contracts") for doc in documents.values()):
        return
    try:
        contracts, problems = read_contracts(document.get("contracts") or [])
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        inner = sub_graph_contracts(documents)
        events, end_ts = list(hub.history), hub.elapsed()

        def check() -> list[ContractResult]:
            return evaluate(contracts, events, end_ts=end_ts) + evaluate_sub_graphs(inner, events)

        # nothing is emitted while it runs: the graph has wound down and RunFinished waits for this
        results = await asyncio.to_thread(check)
    except Exception as exc:  # an engine bug must not cost the run its end
        hub.emit(LogMessage, span_id=span, level="error",
                 message=f"the trace contracts could not be checked: {type(exc).__name__}: {exc}")
        return
    hub.emit(ContractsChecked, span_id=span, **results_event_fields(results))
