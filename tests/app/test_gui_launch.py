"""`launch()` in a real process: the window opens offscreen, reports it was shown, and exits cleanly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.resource_paths import bundled_examples

ROOT = Path(__file__).resolve().parents[2]


def _launch(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TRIADIC_QUIT_AFTER_SHOW": "1",
           "XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)}
    code = "import sys; from app.gui import launch; sys.exit(launch(*sys.argv[1:] or [None]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60, check=False)


def test_launch_shows_window_and_exits_without_litellm(tmp_path: Path) -> None:
    done = _launch(tmp_path, str(bundled_examples()[0]))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["window_shown_s"] > 0
    assert not shown["litellm_imported"]


def test_launch_blank_workflow(tmp_path: Path) -> None:
    done = _launch(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "window_shown_s" in done.stdout


def test_what_the_first_frame_does_not_need_is_not_loaded_by_then(tmp_path: Path) -> None:
    """The store, the plots, the model gateway, the run engine, the checks: none before the window shows
    (each comes later: the store and runs list once the window is idle, the rest on first use)."""
    done = _launch(tmp_path)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["deferred_loaded"] == []
