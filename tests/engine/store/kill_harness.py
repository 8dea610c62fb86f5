"""`kill -9` a real `triadic run --json` at a chosen moment, then check what the store kept.

`kill_once(example, db, delay_s)` starts the CLI on a bundled example, waits for its first event
line (RunStarted: the moment the run is visible to anyone) plus `delay_s`, kills it with SIGKILL and
opens the store again. The report: whether the run is present, the database's integrity check, and
the loss — how far (ms of run time) the last event the process had printed is ahead of the last
event the store kept (0 when everything printed was kept). Used by tests/engine/store and tests/perf.
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
    first = proc.stdout.readline()
    if first:
        seen.append(json.loads(first))
        deadline = time.monotonic() + delay_s
        os.set_blocking(proc.stdout.fileno(), False)
        buffer = b""
        while time.monotonic() < deadline and proc.poll() is None:
            chunk = proc.stdout.read() or b""
            buffer += chunk
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        buffer += proc.stdout.read() or b""
        seen += [json.loads(line) for line in buffer.split(b"\n") if line.strip().startswith(b"{")]
    else:
        proc.kill()
        proc.wait()
    return {"example": example, "delay_s": delay_s, "finished": proc.returncode != -signal.SIGKILL,
            **_inspect(db, seen)}


def _inspect(db: Path, seen: list[dict[str, Any]]) -> dict[str, Any]:
    from engine.store import TraceStore

    with sqlite3.connect(db) as conn:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    run_id = seen[0]["run_id"] if seen else None
    with TraceStore(db) as store:
        run = store.get_run(run_id) if run_id else None
        stored = list(store.iter_events(run_id)) if run is not None else []
    last_seen = max((e["ts"] for e in seen), default=0.0)
    last_stored = max((e.ts for e in stored), default=0.0)
    return {"integrity": integrity, "run_present": run is not None, "status": run.status if run else None,
            "events_seen": len(seen), "events_stored": len(stored),
            "loss_ms": round(max(0.0, last_seen - last_stored) * 1000, 1) if run is not None else None}
