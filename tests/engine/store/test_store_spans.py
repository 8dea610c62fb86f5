"""Rows merged within a batch (spans, recorded calls, live totals) store the same trace as one event per
batch, and only real span ids make spans."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from store_samples import Stream, triad_run, write_all

from engine import events as ev
from engine.store import TraceStore
from engine.store.spans import merge_span, span_row


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


def test_the_stored_request_text_gives_the_replay_key() -> None:
    from engine.store.codec import call_key, encode_call_request

    request = {"model": "m", "messages": [{"role": "user", "content": "é ✓"}], "seed": 7, "tools": None}
    text, key = encode_call_request("llm", "sim/é", request)
    assert key == call_key("llm", "sim/é", request) and json.loads(text) == request


def test_spans_split_across_batches_are_completed_by_later_batches(store: TraceStore) -> None:
    events = triad_run()
    with store.writer(batch_size=3) as writer:
        for event in events:
            writer.append(event)
    spans = {s.span_id: s for s in store.spans("run-0001")}
    node = spans["run-0001/exec_a"]
    assert node.status == "done" and node.start_ts is not None and node.end_ts is not None
    assert spans["run-0001/exec_a/llm"].status == "ok" and spans["run-0001/run"].status == "succeeded"


def test_merge_span_follows_the_upsert_rules_and_refuses_null_or_object_attrs() -> None:
    old = span_row(1, "s", "llm", name="m", start_ts=1.0, status="running", attrs={"a": 1})
    new = span_row(1, "s", "llm", parent_id="p", end_ts=2.0, status="ok", tokens_in=3, cost_usd=0.5,
                   attrs={"b": 2.0})
    assert merge_span(old, new)
    assert old == {**span_row(1, "s", "llm", parent_id="p", name="m", start_ts=1.0, end_ts=2.0, status="ok",
                              tokens_in=3, cost_usd=0.5), "attrs": {"a": 1, "b": 2.0}}
    kept = dict(old)
    assert not merge_span(old, span_row(1, "s", "llm", attrs={"a": None}))
    assert not merge_span(old, span_row(1, "s", "llm", attrs={"a": {"x": 1}}))
    assert old == kept


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
    runtime = pytest.importorskip("engine.runtime")
    sim = pytest.importorskip("engine.llm.sim.direct")
    graph_format = pytest.importorskip("engine.graph.format")
    workflow = graph_format.load_workflow(Path(__file__).parents[3] / "resources" / "examples" / "triad.triadic.json")
    for node in workflow.nodes.values():
        if "model" in node.params:
            node.params["sim"] = {"latency_ms": 0, "tokens_per_s": 0}

    async def go() -> tuple[object, list[ev.Event]]:
        run = runtime.Run(runtime.compile_workflow(workflow), gateway=sim.SimGateway(), store=store)
        result = await run.wait()
        return result, list(run.hub.history)

    with TraceStore(tmp_path / "real.db") as store:
        result, history = asyncio.run(go())
        assert list(store.iter_events(result.run_id)) == history  # type: ignore[attr-defined]
        spans = store.spans(result.run_id)  # type: ignore[attr-defined]
        nodes = [s for s in spans if s.kind == "node"]
        assert nodes and all(s.start_ts is not None and not s.span_id.startswith("node:") for s in nodes)


def test_an_event_whose_span_attrs_json_cannot_hold_is_reported_alone(store: TraceStore) -> None:
    events = triad_run()
    bad = ev.LLMCallFinished(run_id="run-0001", seq=10_000, ts=1.0, span_id="x/llm", parent_id="x", node_id="x",
                             model="m", latency_s=float("inf"))
    errors = write_all(store, [*events[:5], bad, *events[5:]], batch_size=5000)
    assert len(errors) == 1 and "seq 10000 (llm_finished)" in errors[0]
    assert list(store.iter_events("run-0001")) == events
    assert "x/llm" not in {s.span_id for s in store.spans("run-0001")}
