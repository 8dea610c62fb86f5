"""Inputs and model output never drive the terminal (issue 14): control characters are shown escaped;
the database is created readable by its owner only; unreadable places get a clear message."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from app.cli import fmt
from app.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "triad.triadic.json"
NASTY = "tea \x1b]0;pwned\x07\x1b[2J\x9b31m\r done"


def test_control_characters_are_shown_not_obeyed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--input", f"goal={NASTY}"]) == 0
    out, err = capsys.readouterr()
    for raw in ("\x1b", "\x07", "\x9b", "\r"):
        assert raw not in out and raw not in err
    assert "\\x1b]0" in out, out[-3000:]


def test_json_lines_escape_c1_controls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--json", "--input", f"goal={NASTY}"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out
    assert json.loads(out.splitlines()[0])["inputs"]["goal"] == NASTY


def test_safe_keeps_newlines_and_tabs() -> None:
    assert fmt.safe("a\tb\nc\x1bd") == "a\tb\nc\\x1bd"


def test_a_new_database_is_private(tmp_path: Path) -> None:
    from engine.store import TraceStore

    with TraceStore(tmp_path / "p.db"):
        pass
    assert stat.S_IMODE(os.stat(tmp_path / "p.db").st_mode) == 0o600


def test_a_read_only_folder_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.store import migrations
    from engine.store.records import StoreOpenError

    path = tmp_path / "t.db"
    path.write_bytes(b"x" * 100)

    def unable(*_a: object, **_k: object) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(migrations.sqlite3, "connect", unable)
    monkeypatch.setattr(migrations.os, "access", lambda p, mode: Path(p) != tmp_path)
    with pytest.raises(StoreOpenError, match="is not writable"):
        migrations.check_file(path)


def test_a_folder_that_cannot_be_entered_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    def denied(self: Path) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "exists", denied)
    assert main(["runs", "--db", str(tmp_path / "secret" / "t.db")]) == 2
    err = capsys.readouterr().err
    assert "Permission denied" in err and "internal error" not in err
