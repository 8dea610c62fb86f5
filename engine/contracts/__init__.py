"""Trace contracts: assertions over a run's trace, checked after every run and on demand.

The form (kinds, fields, reading and writing) is part of the workflow file: `engine.graph.contract_form`;
validation of the names a contract uses: `engine.graph.contract_checks`. This package evaluates them:
`evaluate(contracts, events)` gives one `ContractResult` per contract (passed, or the first violating
event's seq and why); a run records them as a `ContractsChecked` event just before `RunFinished`
(`engine.runtime.run`), and `check_stored_run` checks a stored run again (`triadic check`). A sub-graph
node's own file may carry contracts too: `evaluate_sub_graphs` checks them over each execution of that
sub-graph (`engine.contracts.sub_graphs`); their results carry the sub-graph's path.
"""

from __future__ import annotations

from engine.contracts.evaluate import (
    ContractResult,
    ContractSourceError,
    evaluate,
    results_event_fields,
    results_from_event,
)
from engine.contracts.stored import check_stored_run, recorded_contracts
from engine.contracts.sub_graphs import evaluate_sub_graphs, sub_graph_contracts

__all__ = ["ContractResult", "ContractSourceError", "check_stored_run", "evaluate", "evaluate_sub_graphs",
           "recorded_contracts", "results_event_fields", "results_from_event", "sub_graph_contracts"]
