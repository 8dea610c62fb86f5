"""A sub-graph node's own file carries contracts: they are checked over each execution of that sub-graph
(its node ids and roles as the file names them), after every run and by `triadic check` over a stored
run; a violation names the sub-graph and its first violating event."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import events as ev
from engine.contracts import ContractSourceError, check_stored_run, evaluate_sub_graphs, recorded_contracts
from engine.graph.contract_form import read_contracts
from engine.store import TraceStore
from tests.engine.contracts.contract_runs import checked, event_at
from tests.engine.replay.sub_graph_files import record_caller, write_sub_graph


@pytest.mark.asyncio
async def test_a_sub_graph_file_s_contracts_hold_and_break_over_its_execution(tmp_path: Path) -> None:
    write_sub_graph(tmp_path, {"kind": "max_calls", "max_calls": 40},
                    {"kind": "max_calls", "max_calls": 1, "nodes": ["executor"]},
                    {"kind": "reviewed_before_output"})
    run, result = await record_caller(None, tmp_path)
    assert result.status == "succeeded", result.reason
    events = list(run.hub.history)
    holds, broken, reviewed = checked(events)
    assert [r.sub_graph for r in (holds, broken, reviewed)] == ["research"] * 3
    assert holds.passed and reviewed.passed
    assert not broken.passed and broken.title == "At most 1 model calls (executor)"
    calls = [e for e in events if isinstance(e, ev.LLMCallStarted) and e.node_id == "research/executor"]
    assert broken.seq == calls[1].seq and isinstance(event_at(events, broken.seq), ev.LLMCallStarted)
    assert broken.reason.startswith("in its execution 1: model call 2 (by 'research/executor')")
    assert broken.line().startswith("FAIL  [sub-graph 'research'] At most 1 model calls (executor): at event ")


@pytest.mark.asyncio
async def test_a_sub_graph_s_duration_counts_from_its_execution_s_start(tmp_path: Path) -> None:
    write_sub_graph(tmp_path, {"kind": "max_duration", "max_seconds": 0.000001})
    run, _ = await record_caller(None, tmp_path)
    (late,) = checked(list(run.hub.history))
    assert not late.passed and late.reason.startswith("in its execution 1: the sub-graph's execution was still going")


@pytest.mark.asyncio
async def test_triadic_check_reads_the_recorded_sub_graph_version_not_today_s_file(tmp_path: Path) -> None:
    sub = write_sub_graph(tmp_path, {"kind": "max_calls", "max_calls": 1, "nodes": ["executor"]})
    with TraceStore(tmp_path / "t.db") as store:
        run, result = await record_caller(store, tmp_path)
        sub.unlink()  # what ran is in the store: the file is not needed to check it
        summary = store.get_run(result.run_id)
        assert summary is not None
        found = check_stored_run(store, summary, recorded_contracts(store, summary))
        assert [(r.sub_graph, r.passed) for r in found] == [("research", False)]
        assert found[0].seq == checked(list(run.hub.history))[0].seq


def test_executions_are_checked_one_by_one_and_the_first_violation_is_reported() -> None:
    contracts, _ = read_contracts([{"kind": "max_calls", "max_calls": 1}])

    def state(seq: int, node: str, what: str) -> ev.Event:
        return ev.NodeStateChanged(run_id="r", seq=seq, ts=seq / 10, node_id=node, state=what)  # type: ignore[arg-type]

    def call(seq: int, node: str) -> ev.Event:
        return ev.LLMCallStarted(run_id="r", seq=seq, ts=seq / 10, node_id=node, model="sim/default", request={})

    planned = ev.RunPlanned(run_id="r", seq=1, ts=0.0, nodes=[["sg", "Sg", "subgraph"], ["sg/x", "X", "executor"]])
    events = [planned, state(2, "sg", "running"), call(3, "sg/x"), call(4, "other"), state(5, "sg", "done"),
              state(6, "sg", "running"), call(7, "sg/x"), call(8, "sg/x"), state(9, "sg", "done")]
    (result,) = evaluate_sub_graphs({"sg": contracts}, events)
    assert not result.passed and result.seq == 8 and result.reason.startswith("in its execution 2: model call 2")
    (alone,) = evaluate_sub_graphs({"sg": contracts}, events[:6])
    assert alone.passed


def test_unreadable_sub_graph_contracts_name_the_sub_graph() -> None:
    from engine.contracts import sub_graph_contracts

    with pytest.raises(ContractSourceError, match="sub-graph 'sg'"):
        sub_graph_contracts({"sg": {"contracts": [{"kind": "no_such_kind"}]}})
