"""Events round-trip through the store, and every derived table answers its query."""

from __future__ import annotations

import pytest
from store_samples import Stream, triad_run, write_all

from engine import events as ev
from engine.store import AmbiguousRunIdError, TraceStore, call_key


def test_events_round_trip_exactly_with_deltas_and_call_bodies(store: TraceStore) -> None:
    events = triad_run()
    assert write_all(store, events) == []
    back = list(store.iter_events("run-0001"))
    assert back == events
    assert store.event_count("run-0001") == len(events)
    started = next(e for e in back if isinstance(e, ev.LLMCallStarted))
    assert started.request["messages"][0]["content"] == "do plan"


def test_iter_events_filters_by_kind_and_seq_range(store: TraceStore) -> None:
    events = triad_run()
    write_all(store, events)
    deltas = list(store.iter_events("run-0001", kinds=["llm_delta"]))
    assert deltas == [e for e in events if e.kind == "llm_delta"]
    verdicts = list(store.iter_events("run-0001", kinds={"verdict", "run_finished"}))
    assert [e.kind for e in verdicts] == ["verdict", "run_finished"]
    window = list(store.iter_events("run-0001", from_seq=5, to_seq=12))
    assert window == [e for e in events if 5 <= e.seq <= 12]


def test_run_summary_by_id_and_unique_prefix(store: TraceStore) -> None:
    write_all(store, triad_run("abc123") + triad_run("abd999", workflow_id="wf-other"))
    run = store.get_run("abc")
    assert run is not None and run.id == "abc123"
    assert run.status == "succeeded" and run.tokens_in == 48 and run.outputs == {"result": "haiku"}
    assert run.inputs == {"goal": "write a haiku"} and run.started_at is not None
    assert store.get_run("zzz") is None
    with pytest.raises(AmbiguousRunIdError, match="matches 2 runs"):
        store.get_run("ab")
    assert [r.id for r in store.list_runs()] == ["abd999", "abc123"]
    assert [r.id for r in store.list_runs(workflow_id="wf-triad")] == ["abc123"]
    assert len(store.list_runs(limit=1)) == 1


def test_spans_form_a_tree_with_usage_rolled_up_to_nodes(store: TraceStore) -> None:
    write_all(store, triad_run())
    spans = {s.span_id: s for s in store.spans("run-0001")}
    root = spans["run-0001/run"]
    assert root.kind == "run" and root.status == "succeeded" and root.tokens_in == 48
    node = spans["run-0001/exec_a"]
    assert node.kind == "node" and node.status == "done" and node.parent_id == root.span_id
    assert node.tokens_in == 12 and node.start_ts is not None and node.end_ts is not None
    assert node.start_ts > 0.03  # the node span starts when it runs, not when it was queued
    llm = spans["run-0001/exec_a/llm"]
    assert llm.kind == "llm" and llm.parent_id == node.span_id and llm.status == "ok"
    assert spans["run-0001/exec_a/tool"].kind == "tool"


def test_verdicts_calls_and_memory(store: TraceStore) -> None:
    events = triad_run()
    write_all(store, events)
    (verdict,) = store.verdicts("run-0001")
    assert verdict.decision == "approve" and verdict.subject_node_id == "exec_a" and verdict.claims[0]["ok"]
    calls = store.recorded_calls("run-0001")
    assert [c.kind for c in calls].count("llm") == 4 and [c.kind for c in calls].count("tool") == 1
    first = calls[0]
    started = next(e for e in events if isinstance(e, ev.LLMCallStarted))
    assert first.request == started.request and first.response["finish_reason"] == "stop"
    assert first.call_key == call_key("llm", started.model, started.request)
    tool = next(c for c in calls if c.kind == "tool")
    assert tool.request == {"q": "haiku"} and tool.response == ["r1", "r2"]
    assert store.memory_value("notes", "workflow", "wf-triad", "draft") == {"text": "first"}
    history = store.memory_history("notes", "workflow", "wf-triad")
    assert [(h.admitted, h.reason) for h in history] == [(True, ""), (False, "critic said revise")]
    assert store.memory_value("notes", "workflow", "wf-triad", "missing") is None


def test_llm_content_edge_cases_round_trip(store: TraceStore) -> None:
    s = Stream("r-content")
    s.add(ev.RunStarted, span_id="root", workflow_id="w", workflow_name="W", workflow_hash="h")
    for i, (content, reply) in enumerate([("", "x"), ("a", "b"), ("same", "same"), ("z", None)]):
        response = {} if reply is None else {"content": reply}
        s.add(ev.LLMCallFinished, span_id=f"c{i}", parent_id="root", node_id="n", model="m", content=content,
              response=response)
    s.add(ev.LLMCallStarted, node_id="n", model="m", request={"no": "span"})  # body stays in the event
    assert write_all(store, s.events) == []
    assert list(store.iter_events("r-content")) == s.events


def test_workflow_versions_are_stored_once_per_hash(store: TraceStore) -> None:
    doc = {"format": "triadic.workflow", "version": 1, "id": "wf-1", "name": "One", "nodes": [], "edges": []}
    first = store.save_workflow(doc)
    assert store.save_workflow(dict(doc)) == first and len(first) == 64
    assert store.workflow_version(first) == doc
    assert store.save_workflow(doc, workflow_hash="given-hash") == "given-hash"
    assert store.workflow_version("nope") is None
    with pytest.raises(ValueError, match="cannot be stored"):
        store.save_workflow({"id": "bad", "x": object()})


def test_delete_run_keeps_shared_versions_and_workflow_memory(store: TraceStore) -> None:
    version = store.save_workflow({"id": "wf-triad", "name": "Triad"})
    events = triad_run("gone")
    s = Stream("gone")
    s.seq = len(events)
    s.add(ev.MemoryWritten, node_id="n", memory="scratch", scope="run", key="k", value=1)
    write_all(store, events + s.events)
    write_all(store, triad_run("kept"))
    assert store.memory_value("scratch", "run", "gone", "k") == 1
    assert store.delete_run("gon") is True
    assert store.get_run("gone") is None and list(store.iter_events("gone")) == []
    assert store.spans("gone") == [] and store.recorded_calls("gone") == []
    assert store.memory_value("scratch", "run", "gone", "k") is None
    assert store.memory_value("notes", "workflow", "wf-triad", "draft") == {"text": "first"}
    assert store.workflow_version(version) == {"id": "wf-triad", "name": "Triad"}
    assert list(store.iter_events("kept")) == triad_run("kept")
    assert store.delete_run("gone") is False


def test_replay_and_fork_lineage_is_kept(store: TraceStore) -> None:
    s = Stream("fork-1")
    s.add(ev.RunStarted, workflow_id="w", workflow_name="W", workflow_hash="h", replay_of="orig", fork_of="orig",
          fork_at_seq=42)
    write_all(store, s.events)
    run = store.get_run("fork-1")
    assert run is not None and (run.replay_of, run.fork_of, run.fork_at_seq) == ("orig", "orig", 42)
    assert store.spans("fork-1")[0].span_id == "run:fork-1"  # a run span even without a span id


def test_values_json_cannot_hold_directly_go_through_to_record(store: TraceStore) -> None:
    from dataclasses import dataclass

    @dataclass
    class Artifact:
        text: str

    s = Stream("dc")
    s.add(ev.NodeOutput, node_id="n", port="result", value=Artifact("hi"))
    assert write_all(store, s.events) == []
    (back,) = store.iter_events("dc")
    assert isinstance(back, ev.NodeOutput) and back.value == {"text": "hi"}


def test_a_damaged_segment_is_reported_as_such(store: TraceStore) -> None:
    import sqlite3

    write_all(store, triad_run())
    conn = sqlite3.connect(store.path)
    conn.execute("UPDATE event_segments SET data = x'01789c0300'")  # a valid tag, then not zlib data
    conn.commit()
    conn.close()
    with pytest.raises(ValueError, match="damaged event segment"):
        list(store.iter_events("run-0001"))
    assert store.get_run("run-0001") is not None  # the run itself still reads
