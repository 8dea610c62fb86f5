"""Benchmark of issue 14's trust figures: kills, sandbox escapes, sandbox start-up.

Figures:
- `kill9_*`: `triadic run --json` on the bundled examples killed with SIGKILL at N random moments
  (0-1.5 s after the run became visible, half of them in its first 0.4 s; TRIADIC_BENCH_KILLS=N,
  default 50): database integrity ok, runs present, worst / median / p90 loss (how long before the
  kill the oldest event the process had printed but the store had not kept was emitted, ms of run
  time), with how many kills lost events at all;
- `sandbox_escapes_*`: the escape attempts of tests/engine/checks/escapes.py tried / succeeded, as the
  engine's user and (when root) as `nobody`, at the namespaces level and at the process level (the
  sandbox before this change, the fallback now);
- `sandbox_startup_ms`: median wall time of `run_sandboxed(["/bin/true"])` with namespaces (bubblewrap)
  against the process level (today's before: no namespaces), interleaved in rounds; ratio beside it.
Each line carries the machine's load average when it was printed (the machine is shared).

Run: `.venv/bin/python -m tests.perf.bench_trust`
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.checks import isolation as iso_mod
from engine.checks import sandbox
from tests.engine.checks.escapes import run_harness
from tests.engine.store.kill_harness import EXAMPLES, kill_once

ROUNDS = 15


def emit(name: str, value: float, unit: str, **extra: Any) -> None:
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, **extra, "loadavg": " ".join(load)}),
          flush=True)


def kills(count: int) -> None:
    rng = random.Random(14)
    reports = []
    with tempfile.TemporaryDirectory(prefix="triadic-kill-") as tmp:
        for i in range(count):
            example = EXAMPLES[i % len(EXAMPLES)]
            # half in the first 0.4 s (the bundled runs last ~0.2-1 s), half anywhere in 1.5 s
            delay = rng.uniform(0.0, 0.4 if i % 2 == 0 else 1.5)
            reports.append(kill_once(example, Path(tmp) / f"{example}.db", delay))
    losses = [r["loss_ms"] for r in reports if r["loss_ms"] is not None]
    emit("kill9_integrity_ok", sum(r["integrity"] == "ok" for r in reports), "runs", of=count)
    emit("kill9_runs_present", sum(r["run_present"] for r in reports), "runs", of=count,
         killed_mid_run=sum(not r["finished"] for r in reports))
    ranked = sorted(losses) or [0.0]
    emit("kill9_worst_loss_ms", ranked[-1], "ms", median_ms=statistics.median(ranked),
         p90_ms=ranked[int(0.9 * (len(ranked) - 1))], target_ms=100,
         kills_losing_events=sum(bool(r["events_lost"]) for r in reports),
         events_lost=sum(r["events_lost"] for r in reports), events_seen=sum(r["events_seen"] for r in reports))


def escapes() -> None:
    users: list[tuple[str, int | None]] = [("engine_user", None)]
    if os.geteuid() == 0:
        users.append(("nobody", 65534))
    for level, label in (("auto", "namespaces"), ("process", "process_level_before")):
        for who, uid in users:
            attempts = run_harness(level=level, as_uid=uid)["attempts"]
            succeeded = sorted(name for name, escaped in attempts.items() if escaped)
            emit(f"sandbox_escapes_{label}_{who}", len(succeeded), "succeeded", tried=len(attempts),
                 which=succeeded, uid=os.geteuid() if uid is None else uid)


async def _startup_ms(level: iso_mod.Isolation) -> float:
    sandbox.isolation = lambda _uid=None: level  # type: ignore[assignment]
    started = time.perf_counter()
    result = await sandbox.run_sandboxed(["/bin/true"], timeout_s=10)
    assert result.returncode == 0, result
    return (time.perf_counter() - started) * 1000


async def startup() -> None:
    strong = iso_mod.isolation(sandbox._sandbox_uid(sandbox.SandboxLimits()))
    if strong.level != "namespaces":
        emit("sandbox_startup_ms", 0.0, "ms", skipped=strong.reason)
        return
    weak = iso_mod.Isolation("process", None, "benchmark peer")
    iso_mod._warned.append(True)  # the peer's warning is not news here
    ours, before = [], []
    for _ in range(ROUNDS):  # interleaved: load drift hits both alike
        ours.append(await _startup_ms(strong))
        before.append(await _startup_ms(weak))
    mine, peer = statistics.median(ours), statistics.median(before)
    emit("sandbox_startup_ms", mine, "ms", before_ms=round(peer, 2), ratio=round(mine / peer, 2),
         level=strong.level, rounds=ROUNDS)


def main() -> None:
    kills(int(os.environ.get("TRIADIC_BENCH_KILLS", "50")))
    escapes()
    asyncio.run(startup())


if __name__ == "__main__":
    main()
