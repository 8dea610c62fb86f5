"""Run every benchmark in tests/perf/ (`make bench`), each in its own process, and print its figures.

Each `bench_<topic>.py` has a `main()` printing JSON lines {"name", "value", "unit", ...}. A benchmark
that fails is reported and the others still run; the exit code is non-zero if any failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    wanted = set(argv)
    failed = []
    for script in sorted(here.glob("bench_*.py")):
        topic = script.stem.removeprefix("bench_")
        if wanted and topic not in wanted:
            continue
        print(f"# {script.stem}", flush=True)
        done = subprocess.run([sys.executable, "-m", f"tests.perf.{script.stem}"], check=False)
        if done.returncode != 0:
            failed.append(script.stem)
            print(f"# {script.stem} FAILED with exit code {done.returncode}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
