"""The run's own check of its workflow's trace contracts, announced just before `RunFinished`.

`await check_contracts(hub, document, span)` reads the contracts of the run's workflow document (the
frozen copy the plan holds), evaluates them over the run's events so far (`engine.contracts`) in a
worker thread (a long run's events take a while: the loop — the window's, in the GUI — goes on) and
emits one `ContractsChecked` event in the run's span, so the store, every view and export see the
results as part of the run. A workflow without contracts announces nothing.

Invariant: never stops the run from finishing: contracts the plan's document cannot give (it was
compiled from a valid workflow, so this is a bug) or a checker that fails are reported as an error
log event, and `RunFinished` follows all the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from engine.contracts import evaluate, results_event_fields
from engine.events import ContractsChecked, LogMessage
from engine.graph.contract_form import read_contracts
from engine.runtime.hub import EventHub


async def check_contracts(hub: EventHub, document: Mapping[str, Any], span: str) -> None:
    if not document.get("contracts"):
        return
    try:
        contracts, problems = read_contracts(document.get("contracts"))
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        # nothing is emitted while it runs: the graph has wound down and RunFinished waits for this
        results = await asyncio.to_thread(evaluate, contracts, list(hub.history), end_ts=hub.elapsed())
    except Exception as exc:  # an engine bug must not cost the run its end
        hub.emit(LogMessage, span_id=span, level="error",
                 message=f"the trace contracts could not be checked: {type(exc).__name__}: {exc}")
        return
    hub.emit(ContractsChecked, span_id=span, **results_event_fields(results))
