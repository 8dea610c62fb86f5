"""Cold start of the GUI: seconds from process start to the main window shown, without a file (target
≤ 0.5 s) and with the bundled triad example (target < 1.5 s).

Each repeat launches `app.gui.launch` (on no file, or on the example) in a fresh process, offscreen,
with TRIADIC_QUIT_AFTER_SHOW=1 (the window prints when it is shown, then quits) and TRIADIC_T0 set
just before the process starts. Prints JSON lines: the median time to the window shown, the median
wall time and CPU time (user+sys) of the whole process — the CPU figure is what a
loaded, shared machine cannot inflate — and whether litellm was imported at start-up (it must not be).
The names of the no-file figures end in `_no_file`. Run: `.venv/bin/python -m tests.perf.bench_startup`.
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
REPEATS = 7
TARGET_S = 1.5
TARGET_NO_FILE_S = 0.5


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _one(settings_dir: str, path: Path | None) -> tuple[float, float, bool, float, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TRIADIC_QUIT_AFTER_SHOW": "1",
           "XDG_CONFIG_HOME": settings_dir}
    code = "import sys; from app.gui import launch; sys.exit(launch(sys.argv[1] if len(sys.argv) > 1 else None))"
    env["TRIADIC_T0"] = repr(time.time())
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *([str(path)] if path else [])], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    wall = time.perf_counter() - started
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = _children_cpu() - cpu_before
    return float(shown["window_shown_s"]), wall, bool(shown["litellm_imported"]), cpu, float(shown["cpu_at_shown_s"])


def main() -> None:
    with tempfile.TemporaryDirectory() as settings_dir:
        _one(settings_dir, None)  # warm the OS file cache: a cold start of the app, not of the disk
        cases = ((None, "_no_file", TARGET_NO_FILE_S), (EXAMPLE, "", TARGET_S))
        runs: dict[str, list[tuple[float, float, bool, float, float]]] = {suffix: [] for _, suffix, _ in cases}
        for _ in range(REPEATS):  # in rounds, so load drift hits both cases alike
            for path, suffix, _target in cases:
                runs[suffix].append(_one(settings_dir, path))
        for _path, suffix, target in cases:
            _report(runs[suffix], suffix, target)
    print(json.dumps({"name": "load_average_1min", "value": round(os.getloadavg()[0], 2), "unit": ""}))


def _report(runs: list[tuple[float, float, bool, float, float]], suffix: str, target: float) -> None:
    shown = statistics.median(r[0] for r in runs)
    print(json.dumps({"name": f"startup_window_shown{suffix}", "value": round(shown, 3), "unit": "s",
                      "target": target, "ratio_to_target": round(shown / target, 3), "repeats": REPEATS}))
    print(json.dumps({"name": f"startup_process_wall{suffix}", "value": round(statistics.median(r[1] for r in runs), 3),
                      "unit": "s", "repeats": REPEATS}))
    print(json.dumps({"name": f"startup_process_cpu{suffix}", "value": round(statistics.median(r[3] for r in runs), 3),
                      "unit": "s", "note": "user+sys CPU of the whole process; robust to a loaded machine",
                      "repeats": REPEATS}))
    print(json.dumps({"name": f"startup_cpu_until_shown{suffix}", "value": round(statistics.median(r[4] for r in runs), 3),
                      "unit": "s", "note": "CPU of the process until the window showed; robust to a loaded machine",
                      "repeats": REPEATS}))
    print(json.dumps({"name": f"startup_imports_litellm{suffix}", "value": any(r[2] for r in runs), "unit": "bool"}))


if __name__ == "__main__":
    main()
