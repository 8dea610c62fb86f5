"""Cold start of the installed bundle vs `make run` (the dev venv): seconds to the main window shown.

Usage: python packaging/measure_startup.py BUNDLE_TRIADIC [VENV_TRIADIC [OTHER_TRIADIC...]] [--rounds N]
(OTHER_TRIADIC: further builds to compare, e.g. the previous bundle; labelled by their path)
Each round starts each command once, interleaved (so load drift hits both alike), on the bundled
triad example, offscreen, with TRIADIC_QUIT_AFTER_SHOW=1 and TRIADIC_T0 set just before the process
starts (see app/gui.py), both in the same clean `env -i` environment (the venv's `triadic` is what
`make run` starts).
Prints JSON lines: the median per command (and its process CPU time, user+sys, which a loaded shared
machine inflates far less than wall time), the ratio bundle / venv, and the load average before and
after. One warm-up round first (a cold start of the app, not of the disk).
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _once(triadic: str, home: str) -> tuple[float, float]:
    example = ROOT / "resources" / "examples" / "triad.triadic.json"
    env = {"HOME": home, "XDG_CONFIG_HOME": f"{home}/.config", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "QT_QPA_PLATFORM": "offscreen", "TRIADIC_QUIT_AFTER_SHOW": "1", "TRIADIC_T0": repr(time.time())}
    argv = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), triadic, "gui", str(example)]
    cpu = _cpu()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=True)
    return float(json.loads(done.stdout.strip().splitlines()[-1])["window_shown_s"]), _cpu() - cpu


def main() -> None:
    args = sys.argv[1:]
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 5
    commands = [a for i, a in enumerate(args) if a != "--rounds" and (i == 0 or args[i - 1] != "--rounds")]
    labels = (["bundle", "venv (make run)"] + commands[2:])[: len(commands)]
    load_before = _load()
    times: dict[str, list[float]] = {label: [] for label in labels}
    cpus: dict[str, list[float]] = {label: [] for label in labels}
    with tempfile.TemporaryDirectory() as home:
        for command in commands:
            _once(command, home)
        for _ in range(rounds):
            for label, command in zip(labels, commands, strict=True):
                shown, cpu = _once(command, home)
                times[label].append(shown)
                cpus[label].append(cpu)
    medians = {label: statistics.median(values) for label, values in times.items()}
    for label, value in medians.items():
        print(json.dumps({"name": f"window_shown {label}", "value": round(value, 3), "unit": "s",
                          "rounds": rounds, "all": [round(v, 3) for v in times[label]]}))
        print(json.dumps({"name": f"process_cpu {label}", "value": round(statistics.median(cpus[label]), 3),
                          "unit": "s", "note": "user+sys of start, show, quit"}))
    if len(medians) >= 2:
        ratio = medians["bundle"] / medians["venv (make run)"]
        print(json.dumps({"name": "window_shown bundle / venv", "value": round(ratio, 3)}))
    print(json.dumps({"name": "loadavg", "before": load_before, "after": _load()}))


if __name__ == "__main__":
    main()
