"""kill -9 in a run's first moments never loses the run (issue 14: 8 of 9 early kills left no run).

The run is visible (its first `--json` line) only once `RunStarted` is committed; a kill right
then, or a few ms later, while the first nodes start, leaves the run in the store, interrupted, with
the database intact and only the last ~100 ms of events missing (the bound itself is measured by
`tests/perf/bench_trust.py`: on a machine shared at load 8 the writer thread falls behind).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.store.kill_harness import kill_once


@pytest.mark.parametrize("delay_s", [0.0, 0.01, 0.05, 0.2])
def test_an_early_kill_keeps_the_run(tmp_path: Path, delay_s: float) -> None:
    report = kill_once("triad", tmp_path / "early.db", delay_s)
    assert report["integrity"] == "ok"
    assert report["run_present"], report
    assert report["status"] in ("interrupted", "succeeded")
    # the ≤100 ms bound is measured by the benchmark; here a sanity bound that holds on a loaded machine
    assert report["loss_ms"] is not None and report["loss_ms"] <= 3000, report
