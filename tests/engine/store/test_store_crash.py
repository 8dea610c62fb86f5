"""Crash safety (a writer SIGKILLed mid-run) and secrets (no API key value ever reaches the DB file)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from store_samples import triad_run, write_all

from engine.graph.format import load_workflow
from engine.llm.sim.direct import SimGateway
from engine.runtime import execute
from engine.store import INTERRUPTED_REASON, TraceStore

HERE = Path(__file__).parent
REPO = HERE.parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_writer_leaves_an_intact_database_and_an_interrupted_run(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, str(HERE / "store_crash_child.py"), str(path)],
                             stdout=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        assert child.stdout is not None
        committed = int(child.stdout.readline())
        time.sleep(0.3)  # keep streaming: the kill lands while batches are being written
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()  # reaped: its pid is gone, so the store can tell the run is orphaned
    assert child.returncode == -signal.SIGKILL

    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with TraceStore(path) as store:
        assert store.recovered_runs == ["crash"]
        run = store.get_run("crash")
        assert run is not None and run.status == "interrupted" and run.reason == INTERRUPTED_REASON
        seqs = [e.seq for e in store.iter_events("crash")]
        assert seqs[:committed] == list(range(1, committed + 1))  # every committed event is there
        assert seqs == list(range(1, len(seqs) + 1))  # whole batches only: no gaps
        assert len(seqs) > committed  # it was killed mid-run, after more batches landed
        assert run.duration_s > 0
    with TraceStore(path) as again:  # recovery happens once
        assert again.recovered_runs == []


def test_runs_of_a_live_writer_in_this_process_are_not_marked_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    with TraceStore(path) as store:
        writer = store.writer()
        for event in triad_run(finish=False):
            writer.append(event)
        writer.flush()
        with TraceStore(path) as second:
            assert second.recovered_runs == []
        writer.close()
    with TraceStore(path) as later:
        assert later.recovered_runs == ["run-0001"]
        assert {s.status for s in later.spans("run-0001") if s.kind == "run"} == {"interrupted"}


def _db_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def _assert_no_key_values(path: Path) -> None:
    blob = _db_bytes(path)
    keys = {name: value for name, value in os.environ.items() if name.endswith("_API_KEY") and value}
    assert keys, "the test must set at least one *_API_KEY"
    for name, value in keys.items():
        assert value.encode() not in blob, f"value of {name} found in the trace database"


def test_no_api_key_value_reaches_the_database_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-OPENAI-4f9b2c71d0e8a3")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-77c1e09b5a2d44")
    path = tmp_path / "secrets.db"
    with TraceStore(path) as store:
        store.save_workflow({"id": "wf-triad", "name": "Triad", "nodes": []})
        assert write_all(store, triad_run()) == []
    _assert_no_key_values(path)


def test_a_real_run_stores_its_trace_without_key_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-OPENAI-91aa0c3e5b7d26")
    monkeypatch.setenv("TRIADIC_TEST_API_KEY", "tk-test-5e3d1c0b9a8f77")
    workflow = load_workflow(REPO / "resources" / "examples" / "triad.triadic.json")
    for node in workflow.nodes.values():
        if "model" in node.params:
            node.params["sim"] = {"latency_ms": 0, "tokens_per_s": 0}
    path = tmp_path / "real.db"
    with TraceStore(path) as store:
        result = asyncio.run(execute(workflow, gateway=SimGateway(), store=store))
        run = store.get_run(result.run_id)
        assert run is not None and run.status == result.status and run.tokens_in == result.tokens_in
        events = list(store.iter_events(result.run_id))
        assert events[0].kind == "run_started" and events[-1].kind == "run_finished"
        assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + len(events)))
        assert store.recorded_calls(result.run_id) and store.spans(result.run_id)
        assert store.workflow_version(run.workflow_hash) is not None
    _assert_no_key_values(path)


def test_a_run_owned_by_another_live_process_is_left_running(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    with TraceStore(path) as store:
        write_all(store, triad_run(finish=False))
    with sqlite3.connect(path) as conn:  # as if another Triadic process (alive: our parent) were writing it
        conn.execute("UPDATE runs SET owner_pid = ?", (os.getppid(),))
    with TraceStore(path) as store:
        assert store.recovered_runs == []
        assert store.get_run("run-0001").status == "running"  # type: ignore[union-attr]
