"""Spans and recorded calls derived from the stored events are the same however the events were batched,
live totals follow the batches, and only real span ids make spans."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from store_samples import Stream, renumber, triad_run, write_all

from engine import events as ev
from engine.graph.format import load_workflow
from engine.llm.sim.direct import SimGateway
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore


def _spans(store: TraceStore, run_id: str) -> list[tuple[object, ...]]:
    return sorted((s.span_id, s.parent_id, s.kind, s.name, s.node_id, s.start_ts, s.end_ts, s.status, s.tokens_in,
                   s.tokens_out, s.cost_usd, sorted(s.attrs.items())) for s in store.spans(run_id))


def test_one_batch_stores_the_same_spans_as_one_event_per_batch(tmp_path: Path) -> None:
    events = triad_run()
    with TraceStore(tmp_path / "single.db") as single, TraceStore(tmp_path / "merged.db") as merged:
        assert write_all(single, events, batch_size=1) == []
        assert write_all(merged, events, batch_size=5000) == []
        assert _spans(merged, "run-0001") == _spans(single, "run-0001")
        assert list(merged.iter_events("run-0001")) == events == list(single.iter_events("run-0001"))
        assert merged.recorded_calls("run-0001") == single.recorded_calls("run-0001")
        assert len(merged.recorded_calls("run-0001")) == 5


def test_live_totals_and_calls_whose_start_is_in_an_earlier_batch(store: TraceStore) -> None:
    events = triad_run(finish=False)
    with store.writer(batch_size=2) as writer:  # started and finished calls land in different batches
        for event in events:
            writer.append(event)
    run = store.get_run("run-0001")
    assert run is not None and run.tokens_in == 48 and run.cost_usd == pytest.approx(0.002)
    calls = store.recorded_calls("run-0001")
    assert all(c.request is not None and c.response is not None and c.call_key for c in calls)


def test_a_recorded_call_is_found_by_the_key_of_its_request(store: TraceStore) -> None:
    from engine.store import call_key

    assert write_all(store, triad_run()) == []
    for call in store.recorded_calls("run-0001"):
        assert call.call_key == call_key(call.kind, call.name, call.request)


def test_spans_split_across_batches_are_completed_by_later_batches(store: TraceStore) -> None:
    events = triad_run()
    with store.writer(batch_size=3) as writer:
        for event in events:
            writer.append(event)
    spans = {s.span_id: s for s in store.spans("run-0001")}
    node = spans["run-0001/exec_a"]
    assert node.status == "done" and node.start_ts is not None and node.end_ts is not None
    assert spans["run-0001/exec_a/llm"].status == "ok" and spans["run-0001/run"].status == "succeeded"


def test_node_announcements_without_a_span_id_make_no_span(store: TraceStore) -> None:
    s = Stream("run-q")
    s.add(ev.RunStarted, span_id="root", workflow_id="wf", workflow_name="w", workflow_hash="h")
    s.add(ev.NodeStateChanged, parent_id="root", node_id="critic", state="queued")
    s.add(ev.NodeStateChanged, parent_id="root", node_id="late", state="queued")
    s.add(ev.NodeStateChanged, span_id="root:node1", parent_id="root", node_id="critic", state="running")
    s.add(ev.NodeStateChanged, span_id="root:node1", parent_id="root", node_id="critic", state="done")
    s.add(ev.NodeStateChanged, parent_id="root", node_id="late", state="skipped", detail="no input")
    s.add(ev.RunFinished, span_id="root", status="succeeded")
    assert write_all(store, s.events) == []
    spans = {sp.span_id: sp for sp in store.spans("run-q")}
    assert set(spans) == {"root", "root:node1"}
    assert spans["root:node1"].start_ts is not None and spans["root:node1"].status == "done"
    assert list(store.iter_events("run-q")) == s.events  # the announcements themselves are all stored


def test_append_many_stores_every_event_in_order(store: TraceStore) -> None:
    events = triad_run()
    with store.writer() as writer:
        writer.append_many(events[:7])
        writer.append_many([])
        writer.append_many(events[7:])
    assert writer.errors == [] and writer.events_stored == len(events)
    assert list(store.iter_events("run-0001")) == events
    writer.append_many(events[:2])
    assert len(writer.errors) == 2 and "the trace writer is closed" in writer.errors[0]


def test_a_real_run_stores_every_event_and_only_started_node_spans(tmp_path: Path) -> None:
    workflow = load_workflow(Path(__file__).parents[3] / "resources" / "examples" / "triad.triadic.json")
    for node in workflow.nodes.values():
        if "model" in node.params:
            node.params["sim"] = {"latency_ms": 0, "tokens_per_s": 0}

    async def go() -> tuple[object, list[ev.Event]]:
        run = Run(compile_workflow(workflow), gateway=SimGateway(), store=store)
        result = await run.wait()
        return result, list(run.hub.history)

    with TraceStore(tmp_path / "real.db") as store:
        result, history = asyncio.run(go())
        assert list(store.iter_events(result.run_id)) == history  # type: ignore[attr-defined]
        spans = store.spans(result.run_id)  # type: ignore[attr-defined]
        nodes = [s for s in spans if s.kind == "node"]
        assert nodes and all(s.start_ts is not None and not s.span_id.startswith("node:") for s in nodes)


def test_values_json_cannot_hold_are_stored_exactly(store: TraceStore) -> None:
    odd = ev.LLMCallFinished(run_id="run-0001", seq=0, ts=1.0, span_id="x/llm", parent_id="x", node_id="x",
                             model="m", latency_s=float("inf"), response={"bytes": b"\x00\xff", 7: "int key"})
    huge = ev.NodeOutput(run_id="run-0001", seq=0, ts=1.0, node_id="x", port="p", value=[2**70, -(2**90)])
    events = renumber([*triad_run()[:5], odd, huge, *triad_run()[5:]])
    assert write_all(store, events, batch_size=5000) == []
    assert list(store.iter_events("run-0001")) == events
    assert {s.span_id: s for s in store.spans("run-0001")}["x/llm"].attrs == {"latency_s": float("inf")}
