"""`triadic run` on a terminal (a pseudo-terminal here): live table, and a human gate asked on the
terminal whose edited answer becomes the run's output."""

from __future__ import annotations

import os
import pty
import select
import sys
import time
from pathlib import Path

from cli_fixtures import ROOT, gated_doc, write_doc

TRIADIC = str(Path(sys.executable).with_name("triadic"))


def _gated(tmp_path: Path) -> Path:
    return write_doc(tmp_path / "gated.triadic.json", gated_doc())


def _converse(argv: list[str], answers: dict[bytes, bytes], timeout_s: float = 90) -> tuple[str, int]:
    """Run argv on a pseudo-terminal, typing each answer once its cue appears; (output, exit code)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: becomes triadic on the terminal
        os.chdir(ROOT)
        os.environ["COLUMNS"] = "120"
        os.execv(argv[0], argv)
    seen, pending, deadline = b"", dict(answers), time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        seen += data
        for cue in [c for c in pending if c in seen]:
            os.write(fd, pending.pop(cue))
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return seen.decode(errors="replace"), os.waitstatus_to_exitcode(status)


def test_gate_asked_on_terminal_and_edit_becomes_output(tmp_path: Path) -> None:
    path = _gated(tmp_path)
    out, code = _converse([TRIADIC, "run", str(path), "--db", str(tmp_path / "t.db"), "--stream"], {
        b"[a/r/e]": b"e\n",
        b"only '.'": b"EDITED BY A PERSON\n.\n",
    })
    assert code == 0, out
    assert "gate asks: Publish this?" in out
    assert "\x1b[" in out  # the live table is drawn in place with terminal control codes
    result = out[out.index("output result:"):]
    assert "EDITED BY A PERSON" in result
