"""Store housekeeping: prune by age and per-workflow count, never a live run nor a source a kept
replay / fork descends from; vacuum gives the space back; fork origins read from the source."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path

import pytest

from engine.store import TraceStore
from engine.store.housekeeping import PruneRuleError, apply_prune, fmt_size, plan_prune
from engine.store.lineage import descendants, fork_origin
from tests.engine.store.store_samples import triad_run, write_all

DAY = 86_400.0
NOW = 1_800_000_000.0


def _store(tmp_path: Path, runs: list[tuple[str, str, float, dict[str, object]]]) -> TraceStore:
    """runs: (id, workflow, age in days, RunStarted lineage fields); written oldest first."""
    path = tmp_path / "trace.db"
    store = TraceStore(path)
    for run_id, workflow, _age, lineage in runs:
        events = triad_run(run_id, workflow_id=workflow)
        events[0] = dataclasses.replace(events[0], **lineage)  # type: ignore[arg-type]
        assert write_all(store, events) == []
    with sqlite3.connect(path) as raw:
        raw.executemany("UPDATE runs SET started_at = ? WHERE id = ?", [(NOW - age * DAY, r) for r, _w, age, _l in runs])
    return store


def test_prune_keeps_the_newest_per_workflow_and_respects_age(tmp_path: Path) -> None:
    store = _store(tmp_path, [("a1", "wf-a", 40, {}), ("a2", "wf-a", 20, {}), ("a3", "wf-a", 1, {}),
                              ("b1", "wf-b", 50, {}), ("b2", "wf-b", 2, {})])
    assert plan_prune(store, keep=1, now=NOW).delete == ["a1", "a2", "b1"]
    assert plan_prune(store, older_than_days=30, now=NOW).delete == ["a1", "b1"]
    assert plan_prune(store, older_than_days=30, keep=2, now=NOW).delete == ["a1"]  # every rule must hold
    plan = plan_prune(store, older_than_days=10, now=NOW)
    assert apply_prune(store, plan) == 3
    assert [r.id for r in store.list_runs()] == ["b2", "a3"]
    assert store.event_count("a1") == 0 and store.verdicts("a1") == []
    store.close()


def test_prune_never_takes_a_live_run_or_a_source_a_kept_fork_descends_from(tmp_path: Path) -> None:
    store = _store(tmp_path, [("src", "wf", 90, {}), ("mid", "wf", 80, {"replay_of": "src"}),
                              ("fork", "wf", 1, {"fork_of": "mid", "fork_at_seq": 4}),
                              ("old", "wf", 70, {}), ("lone", "wf", 60, {"replay_of": "old"})])
    with sqlite3.connect(tmp_path / "trace.db") as raw:
        raw.execute("UPDATE runs SET status = 'running', owner_pid = ? WHERE id = 'lone'", (os.getpid(),))
    plan = plan_prune(store, older_than_days=30, now=NOW)
    assert plan.delete == [] or "src" not in plan.delete
    assert sorted(plan.kept_as_source) == ["mid", "old", "src"]  # the fork stays, so its chain stays
    assert plan.kept_live == ["lone"]
    assert "kept: replays or forks that stay descend from them" in plan.describe()
    assert descendants(store, ["src"]) == {"mid", "fork"}
    store.close()


def test_a_source_goes_with_its_descendants_when_they_all_go(tmp_path: Path) -> None:
    store = _store(tmp_path, [("src", "wf", 90, {}), ("rep", "wf", 80, {"replay_of": "src"})])
    assert plan_prune(store, older_than_days=30, now=NOW).delete == ["src", "rep"]
    store.close()


def test_prune_rules_are_checked(tmp_path: Path) -> None:
    store = _store(tmp_path, [])
    for kwargs, words in (({}, "needs a rule"), ({"older_than_days": -1}, "negative"), ({"keep": -2}, "negative")):
        with pytest.raises(PruneRuleError, match=words):
            plan_prune(store, **kwargs)  # type: ignore[arg-type]
    store.close()


def test_vacuum_gives_the_space_of_removed_runs_back(tmp_path: Path) -> None:
    store = _store(tmp_path, [(f"r{i:03d}", "wf", 100, {}) for i in range(60)])
    full = store.size_bytes()
    apply_prune(store, plan_prune(store, keep=0, now=NOW))
    store.vacuum()
    assert store.size_bytes() < full / 2
    assert fmt_size(812) == "812 B" and fmt_size(3 * 1024 * 1024) == "3.0 MB"
    store.close()


def test_fork_origin_names_the_node_execution_that_began_at_the_seq(tmp_path: Path) -> None:
    store = _store(tmp_path, [("src", "wf", 1, {})])
    starts = [e for e in store.iter_events("src", kinds=["node_state"]) if getattr(e, "state", "") == "running"]
    assert fork_origin(store, "src", starts[2].seq) == ("exec_b", 1)
    assert fork_origin(store, "src", starts[2].seq + 1) is None
    assert fork_origin(store, "gone", 3) is None
    store.close()
