"""`triadic run` started with its standard input (or output) closed — `<&-`, as some schedulers and
service managers start programs — runs to the end: a human gate follows --auto-approve /
--auto-reject or is rejected ("no terminal to ask on"); it neither crashes nor waits for input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cli_fixtures import ROOT, gated_doc, write_doc

TRIADIC = str(Path(sys.executable).with_name("triadic"))


def _gated(tmp_path: Path) -> Path:
    return write_doc(tmp_path / "gated.triadic.json", gated_doc())


def _run_closed(argv: list[str], *, close: tuple[int, ...]) -> subprocess.CompletedProcess[str]:
    """Run `triadic` with the file descriptors `close` closed before it starts (0: stdin, 1: stdout)."""
    def closing() -> None:
        for fd in close:
            os.close(fd)

    out = None if 1 in close else subprocess.PIPE
    return subprocess.run([TRIADIC, *argv], stdin=None if 0 in close else subprocess.DEVNULL, stdout=out,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=90, check=False,
                          preexec_fn=closing)


def test_closed_stdin_rejects_the_gate_or_follows_the_flag(tmp_path: Path) -> None:
    path, db = _gated(tmp_path), str(tmp_path / "t.db")
    asked = _run_closed(["run", str(path), "--db", db, "-q"], close=(0,))
    assert asked.returncode == 1, asked.stderr
    assert "internal error" not in asked.stderr
    assert "no terminal to ask on" in asked.stderr and "failed" in asked.stdout
    approved = _run_closed(["run", str(path), "--db", db, "-q", "--auto-approve"], close=(0,))
    assert approved.returncode == 0, approved.stderr
    assert "succeeded" in approved.stdout and "output result:" in approved.stdout


def test_closed_stdout_still_runs_and_records(tmp_path: Path) -> None:
    path, db = _gated(tmp_path), tmp_path / "t.db"
    done = _run_closed(["run", str(path), "--db", str(db), "--auto-approve"], close=(1,))
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    assert db.exists()
