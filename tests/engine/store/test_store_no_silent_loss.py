"""No silent loss (issue 14): a locked store makes the writer give up in time, saying what it lost;
a run that lost events is marked incomplete in the store; the CLI exits 3 with a final problem line
(and, with --json, a last `recording_incomplete` object)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from store_samples import triad_run

from engine.store import TraceStore
from engine.store.incomplete import INCOMPLETE


def test_a_store_locked_by_another_process_is_given_up_on_in_time(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    with TraceStore(path) as store:
        writer = store.writer()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock for longer than the run
        try:
            for event in triad_run():
                writer.append(event)
            started = time.monotonic()
            writer.close(timeout=1.0)
            assert time.monotonic() - started < 3.0
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert any("not stored" in e and "locked by another process" in e for e in writer.errors), writer.errors


def test_a_run_that_lost_its_end_is_marked_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "lost.db"
    events = triad_run()
    with TraceStore(path) as store:
        with store.writer() as writer:
            for event in events[:-1]:
                writer.append(event)
            writer.append(events[3])  # a repeat: refused, so the trace is not complete
        assert writer.errors
        run = store.get_run("run-0001")
        assert run is not None and run.status == INCOMPLETE and "trace incomplete" in run.reason


def test_the_cli_says_a_trace_is_incomplete_and_exits_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli.main import main
    from engine.store.batch import BatchWriter

    def refuse(self: BatchWriter, chunks: object) -> tuple[int, list[str]]:
        return 0, ["events not stored: OperationalError: database or disk is full"]

    monkeypatch.setattr(BatchWriter, "write", refuse)
    example = Path(__file__).resolve().parents[3] / "resources" / "examples" / "triad.triadic.json"
    code = main(["run", str(example), "--db", str(tmp_path / "full.db"), "--json"])
    out, err = capsys.readouterr()
    assert code == 3
    last = json.loads(out.strip().splitlines()[-1])
    assert last["kind"] == "recording_incomplete" and "disk is full" in last["problems"][0]
    assert err.strip().splitlines()[-1].startswith("triadic: problem: the run succeeded but its trace")
