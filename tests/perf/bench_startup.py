"""Cold start of the GUI: seconds from process start to the main window shown (target < 1.5 s).

Each repeat launches `app.gui.launch` on the bundled triad example in a fresh process, offscreen,
with TRIADIC_QUIT_AFTER_SHOW=1 (the window prints when it is shown, then quits) and TRIADIC_T0 set
just before the process starts. Prints JSON lines: the median time to the window shown, the median
wall time and CPU time (user+sys) of the whole process — the CPU figure is what a
loaded, shared machine cannot inflate — and whether litellm was imported at start-up (it must not be).
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
REPEATS = 5
TARGET_S = 1.5


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _one(settings_dir: str) -> tuple[float, float, bool, float]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TRIADIC_QUIT_AFTER_SHOW": "1",
           "XDG_CONFIG_HOME": settings_dir}
    code = "import sys; from app.gui import launch; sys.exit(launch(sys.argv[1]))"
    env["TRIADIC_T0"] = repr(time.time())
    cpu_before = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    wall = time.perf_counter() - started
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = _children_cpu() - cpu_before
    return float(shown["window_shown_s"]), wall, bool(shown["litellm_imported"]), cpu


def main() -> None:
    with tempfile.TemporaryDirectory() as settings_dir:
        _one(settings_dir)  # warm the OS file cache: a cold start of the app, not of the disk
        runs = [_one(settings_dir) for _ in range(REPEATS)]
    shown = statistics.median(r[0] for r in runs)
    print(json.dumps({"name": "startup_window_shown", "value": round(shown, 3), "unit": "s",
                      "target": TARGET_S, "ratio_to_target": round(shown / TARGET_S, 3), "repeats": REPEATS}))
    print(json.dumps({"name": "startup_process_wall", "value": round(statistics.median(r[1] for r in runs), 3),
                      "unit": "s", "repeats": REPEATS}))
    print(json.dumps({"name": "startup_process_cpu", "value": round(statistics.median(r[3] for r in runs), 3),
                      "unit": "s", "note": "user+sys CPU of the whole process; robust to a loaded machine",
                      "repeats": REPEATS}))
    print(json.dumps({"name": "startup_imports_litellm", "value": any(r[2] for r in runs), "unit": "bool"}))


if __name__ == "__main__":
    main()
