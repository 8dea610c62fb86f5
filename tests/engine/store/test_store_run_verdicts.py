"""Verdict counts per run for the Runs list: one query over many runs, decisions in first-seen order."""

from __future__ import annotations

from store_samples import Stream, triad_run, write_all

from engine import events as ev
from engine.store import TraceStore


def _judged(run_id: str, decisions: list[str]) -> list[ev.Event]:
    s = Stream(run_id)
    root = f"{run_id}/run"
    s.add(ev.RunStarted, span_id=root, workflow_id="wf", workflow_name="W", workflow_hash="h" * 64)
    for index, decision in enumerate(decisions):
        s.add(ev.VerdictIssued, span_id=f"{root}/c", parent_id=root, node_id="critic", subject_node_id="exec",
              decision=decision, score=0.5, reasons=[], claims=[], round=index + 1)
    s.add(ev.RunFinished, span_id=root, status="succeeded")
    return s.events


def test_counts_each_runs_verdicts_by_decision(store: TraceStore) -> None:
    write_all(store, triad_run("run-a") + _judged("run-b", ["revise", "revise", "approve"]) + _judged("run-c", []))
    counts = store.verdict_counts(["run-a", "run-b", "run-c", "no-such-run"])
    assert counts == {"run-a": {"approve": 1}, "run-b": {"revise": 2, "approve": 1}}
    assert list(counts["run-b"]) == ["revise", "approve"]  # first seen first
    assert store.verdict_counts([]) == {}


def test_a_deleted_run_has_no_counts(store: TraceStore) -> None:
    write_all(store, _judged("run-b", ["reject"]))
    assert store.verdict_counts(["run-b"]) == {"run-b": {"reject": 1}}
    assert store.delete_run("run-b")
    assert store.verdict_counts(["run-b"]) == {}
