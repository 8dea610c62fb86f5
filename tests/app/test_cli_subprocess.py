"""The installed `triadic` console script end to end, offline: run → runs → show, no secrets leak,
and Ctrl-C cancels a run cleanly (exit 130, the stored run is consistent and marked cancelled)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE, ROOT, example_doc, write_doc

from app.cli.main import main

TRIADIC = str(Path(sys.executable).with_name("triadic"))
SECRETS = {"OPENAI_API_KEY": "sk-test-NEVER-LEAK-4f1c2a9e", "ANTHROPIC_API_KEY": "sk-ant-NEVER-LEAK-77b3"}


@dataclass
class Session:
    db: Path
    outputs: list[str]
    run_id: str


def _triadic(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TRIADIC, *argv], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Session:
    db = tmp_path_factory.mktemp("cli") / "traces.db"
    env = {**os.environ, **SECRETS}
    env.pop("TRIADIC_DB", None)
    run = _triadic("run", str(EXAMPLE), "--db", str(db), env=env)
    assert run.returncode == 0, run.stderr
    run_id = next(line.split(": ", 1)[1] for line in run.stdout.splitlines() if line.startswith("run id: "))
    runs = _triadic("runs", "--db", str(db), env=env)
    assert runs.returncode == 0, runs.stderr
    show = _triadic("show", run_id[:8], "--db", str(db), "--events", env=env)
    assert show.returncode == 0, show.stderr
    outputs = [p.stdout + p.stderr for p in (run, runs, show)]
    return Session(db, outputs, run_id)


def test_run_then_runs_then_show(session: Session) -> None:
    run_out, runs_out, show_out = session.outputs
    assert "succeeded" in run_out and f"db: {session.db}" in run_out
    assert session.run_id[:12] in runs_out and "succeeded" in runs_out and "Triad" in runs_out
    assert f"run {session.run_id}" in show_out
    for span in ("node ", "llm "):
        assert span in show_out  # the span tree reaches node executions and LLM calls
    assert '"kind": "run_finished"' in show_out  # --events dumps the stream


def test_no_api_key_in_output_or_db(session: Session) -> None:
    raw = b"".join(p.read_bytes() for p in session.db.parent.iterdir() if p.is_file())
    for secret in SECRETS.values():
        assert all(secret not in text for text in session.outputs)
        assert secret.encode() not in raw


def test_show_unknown_run_and_missing_db(session: Session, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "zzzz-no-such-run", "--db", str(session.db)]) == 2
    assert "no run matches 'zzzz-no-such-run'" in capsys.readouterr().err
    assert main(["runs", "--db", str(tmp_path / "absent.db")]) == 2
    assert "no trace database at" in capsys.readouterr().err
    assert not (tmp_path / "absent.db").exists()


def test_ctrl_c_cancels_the_run_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    for node in doc["nodes"]:
        if node["role"] in ("planner", "executor", "critic"):
            node["params"]["sim"] = {"latency_ms": 1500}
    path = write_doc(tmp_path / "slow.triadic.json", doc)
    db = tmp_path / "t.db"
    proc = subprocess.Popen([TRIADIC, "run", str(path), "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if " running" in line or not line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "cancelled" in out and "Traceback" not in err
    assert main(["runs", "--db", str(db)]) == 0
    assert "cancelled" in capsys.readouterr().out


def test_runs_filters_by_workflow(session: Session, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["runs", "--db", str(session.db), "--workflow", "triad: PLAN, execute, review"]) == 0
    assert session.run_id[:12] in capsys.readouterr().out
    assert main(["runs", "--db", str(session.db), "--workflow", "other"]) == 0
    assert "no runs of workflow 'other'" in capsys.readouterr().out


def _stored_runs(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM runs WHERE status = 'running'").fetchone()[0])


def test_killed_run_is_reported_interrupted_on_next_start(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    for node in doc["nodes"]:
        if node["role"] in ("planner", "executor", "critic"):
            node["params"]["sim"] = {"latency_ms": 3000}
    path = write_doc(tmp_path / "slow.triadic.json", doc)
    db = tmp_path / "t.db"
    proc = subprocess.Popen([TRIADIC, "run", str(path), "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    assert proc.stdout is not None
    while (line := proc.stdout.readline()) and "Plan (planner) running" not in line:
        pass
    # what is printed comes from the event stream, which shows nothing before the run's start is committed
    assert _stored_runs(db) == 1
    proc.kill()
    proc.wait(timeout=30)
    assert main(["runs", "--db", str(db)]) == 0
    captured = capsys.readouterr()
    assert "1 run(s) left unfinished by an earlier process were marked interrupted" in captured.err
    assert "interrupted" in captured.out
