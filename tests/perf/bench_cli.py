"""Benchmark of the `triadic` CLI: start-up and an offline end-to-end run, in subprocesses.

Figures (medians over repeats, JSON lines): bare interpreter start (the peer), `import engine` (and
whether it imported litellm; target < 0.3 s, no litellm), `triadic --help` and `triadic validate`
(start-up of the light commands), and `triadic run` of the triad example on the simulated provider,
wall time including start-up (target < 3 s); also the litellm import time that an offline run avoids.
Each figure also carries `cpu_s` (median user+sys CPU of the child), which a loaded shared machine
distorts far less than wall time, and runs print the 1-minute load average.

Run: .venv/bin/python -m tests.perf.bench_cli
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "triad.triadic.json"
TRIADIC = Path(sys.executable).with_name("triadic")
REPEATS = 5


_CPU_S: list[float] = []  # CPU seconds (user + sys) of the last timed child, less load-sensitive


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    cpu_before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300)
    took = time.perf_counter() - start
    _CPU_S.append(_children_cpu() - cpu_before)
    if done.returncode != 0:
        raise RuntimeError(f"{argv} exited {done.returncode}: {done.stderr[-2000:]}")
    return took, done


def _median(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    _CPU_S.clear()
    runs = [_timed(argv) for _ in range(REPEATS)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def _cpu_median() -> float:
    return round(statistics.median(_CPU_S), 4)


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 4), "unit": unit, **extra}), flush=True)


def main() -> None:
    bare, _ = _median([sys.executable, "-c", "pass"])
    _emit("python_start", bare, "s", repeats=REPEATS, cpu_s=_cpu_median(), load_avg_1m=_load())

    probe = "import sys, engine; print('litellm' in sys.modules)"
    engine_s, done = _median([sys.executable, "-c", probe])
    _emit("import_engine", engine_s, "s", target=0.3, litellm_imported=done.stdout.strip() == "True", cpu_s=_cpu_median(),
          over_bare_python_s=round(engine_s - bare, 4))

    help_s, _ = _median([str(TRIADIC), "--help"])
    _emit("triadic_help", help_s, "s", cpu_s=_cpu_median(), over_bare_python_s=round(help_s - bare, 4))

    validate_s, _ = _median([str(TRIADIC), "validate", str(EXAMPLE)])
    _emit("triadic_validate_triad", validate_s, "s", cpu_s=_cpu_median(),
          over_bare_python_s=round(validate_s - bare, 4))

    # What a sim run would pay at start-up if sim models went through litellm (the CLI's
    # OfflineFirstGateway serves sim/... in-process and imports litellm only for other models).
    litellm_s, _ = _median([sys.executable, "-c",
                            "from engine.llm.litellm_setup import load_litellm; load_litellm()"])
    _emit("litellm_import_avoided", litellm_s, "s", cpu_s=_cpu_median(),
          over_bare_python_s=round(litellm_s - bare, 4))

    with tempfile.TemporaryDirectory() as tmp:
        times = []
        _CPU_S.clear()
        for i in range(REPEATS):
            took, _ = _timed([str(TRIADIC), "run", str(EXAMPLE), "--db", str(Path(tmp) / f"b{i}.db"), "--quiet"])
            times.append(took)
        _emit("triadic_run_triad_offline", statistics.median(times), "s", target=3.0, repeats=REPEATS,
              min=round(min(times), 4), max=round(max(times), 4), cpu_s=_cpu_median(), load_avg_1m=_load())


if __name__ == "__main__":
    main()
