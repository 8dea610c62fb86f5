"""`kill -9` a real `triadic run --json` at a chosen moment, then check what the store kept.

`kill_once(example, db, delay_s)` starts the CLI on a bundled example, waits for its first event
line (RunStarted: the moment the run is visible to anyone) plus `delay_s`, kills it with SIGKILL and
opens the store again. The report: whether the run is present, the database's integrity check, and
the loss — how long before the kill the oldest event the process had printed but the store did not
keep was emitted (ms of run time; 0 when everything printed was kept): "the last N ms of events were
lost". The kill's moment in run time comes from the line that arrived soonest after its `ts` (so the
pipe's lag makes the loss, if anything, a slight under-estimate of at most that line's lag). Used by tests/engine/store and tests/perf.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = ("triad", "research", "code_fix", "text_to_sql", "hanoi", "tools")


def kill_once(example: str, db: Path, delay_s: float) -> dict[str, Any]:
    argv = [sys.executable, "-m", "app.cli.main", "run", str(REPO / "resources" / "examples" / f"{example}.triadic.json"),
            "--db", str(db), "--json", "--auto-approve"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    seen: list[dict[str, Any]] = []
    arrivals: list[float] = []  # when each seen line was read (wall clock of this process)
    first = proc.stdout.readline()
    killed_at = time.monotonic()
    if first:
        seen.append(json.loads(first))
        arrivals.append(killed_at)
        deadline = time.monotonic() + delay_s
        os.set_blocking(proc.stdout.fileno(), False)
        pending = b""
        while time.monotonic() < deadline and proc.poll() is None:
            pending = _take_lines(pending + (proc.stdout.read() or b""), seen, arrivals)
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        killed_at = time.monotonic()
        proc.wait()
        _take_lines(pending + (proc.stdout.read() or b"") + b"\n", seen, arrivals)
    else:
        proc.kill()
        proc.wait()
    # the run's clock in this process's time: the smallest (arrival - ts) over the lines seen
    run_t0 = min((at - e["ts"] for at, e in zip(arrivals, seen, strict=True)), default=killed_at)
    return {"example": example, "delay_s": delay_s, "finished": proc.returncode != -signal.SIGKILL,
            **_inspect(db, seen, killed_at - run_t0)}


def _take_lines(data: bytes, seen: list[dict[str, Any]], arrivals: list[float]) -> bytes:
    """Parse the whole lines of `data` into `seen` (arrival: now); the unfinished tail is returned."""
    *lines, tail = data.split(b"\n")
    now = time.monotonic()
    for line in lines:
        if line.strip().startswith(b"{"):
            seen.append(json.loads(line))
            arrivals.append(now)
    return tail


def _inspect(db: Path, seen: list[dict[str, Any]], kill_ts: float) -> dict[str, Any]:
    from engine.store import TraceStore

    with sqlite3.connect(db) as conn:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    run_id = seen[0]["run_id"] if seen else None
    with TraceStore(db) as store:
        run = store.get_run(run_id) if run_id else None
        stored = list(store.iter_events(run_id)) if run is not None else []
    kept = {e.seq for e in stored}
    lost = [e["ts"] for e in seen if e["seq"] not in kept]
    loss = max(0.0, kill_ts - min(lost)) * 1000 if lost else 0.0
    return {"integrity": integrity, "run_present": run is not None, "status": run.status if run else None,
            "events_seen": len(seen), "events_stored": len(stored), "events_lost": len(lost),
            "loss_ms": round(loss, 1) if run is not None else None}
