"""Contracts evaluated over recorded traces: a call after a budget hit, re-checking a checked run, scope by
sub-graph key, and the end of a run that is still being checked."""

from __future__ import annotations

import dataclasses

import pytest

from engine import events as ev
from engine.contracts import evaluate
from engine.graph.contract_form import read_contracts
from tests.engine.contracts.contract_runs import example, run_events


def contracts(*raw: dict[str, object]):  # type: ignore[no-untyped-def]
    found, problems = read_contracts(list(raw))
    assert problems == []
    return found


@pytest.mark.asyncio
async def test_no_call_after_budget_names_a_model_call_that_started_after_the_hit() -> None:
    doc = example("triad")
    doc["settings"]["budget"]["max_tokens"] = 800
    events = [e for e in await run_events(doc) if not isinstance(e, ev.ContractsChecked)]
    hit = next(e for e in events if isinstance(e, ev.BudgetExceeded))
    started = next(e for e in events if isinstance(e, ev.LLMCallStarted))
    # A trace where a call went out after the hit (what an engine that does not enforce budgets records).
    late = dataclasses.replace(started, seq=hit.seq + 1, ts=hit.ts)
    finished = events[-1]
    trace = [e for e in events if e.seq <= hit.seq] + [late, dataclasses.replace(finished, seq=hit.seq + 2)]
    (result,) = evaluate(contracts({"kind": "no_call_after_budget"}), trace)
    assert not result.passed and result.seq == hit.seq + 1
    assert f"after the tokens budget was hit (event {hit.seq})" in result.reason


@pytest.mark.asyncio
async def test_checking_a_checked_run_again_gives_the_same_answer() -> None:
    doc = example("triad")
    doc["contracts"] = [{"kind": "max_calls", "max_calls": 3}, {"kind": "reviewed_before_output"}]
    events = await run_events(doc)
    recorded = next(e for e in events if isinstance(e, ev.ContractsChecked))
    again = evaluate(contracts(*doc["contracts"]), events)
    assert [r.to_record() for r in again] == recorded.results
    assert recorded.violated == 1


def test_a_sub_graph_node_scopes_its_inner_nodes_and_the_end_counts_when_not_recorded() -> None:
    planned = ev.RunPlanned(run_id="r", seq=1, ts=0.0, nodes=[["sub", "Sub", "subgraph"], ["sub/x", "X", "executor"]])
    calls = [ev.LLMCallStarted(run_id="r", seq=2 + i, ts=0.1, node_id=node, model="sim/default", request={})
             for i, node in enumerate(["sub/x", "sub/x", "other"])]
    found = evaluate(contracts({"kind": "max_calls", "max_calls": 1, "nodes": ["sub"]},
                               {"kind": "max_calls", "max_calls": 2, "roles": ["executor"]},
                               {"kind": "max_duration", "max_seconds": 1}), [planned, *calls], end_ts=5.0)
    assert [r.passed for r in found] == [False, True, False]
    assert found[0].seq == 3 and found[2].seq == 4 and "ended at 5.000 s" in found[2].reason
