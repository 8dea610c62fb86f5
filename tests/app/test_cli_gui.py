"""`triadic gui` hands the file and --db to `app.gui.launch`, imported only when the command runs."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE

from app.cli.main import main


def test_gui_calls_launch_with_file_and_db(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str | None, str | None]] = []

    def launch(path: str | None, *, db: str | None = None) -> int:
        calls.append((path, db))
        return 0

    fake = types.ModuleType("app.gui")
    fake.launch = launch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "app.gui", fake)
    assert main(["gui", str(EXAMPLE), "--db", "/tmp/x.db"]) == 0
    assert main(["gui"]) == 0
    assert calls == [(str(EXAMPLE), "/tmp/x.db"), (None, None)]


def test_gui_with_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gui", str(tmp_path / "nope.triadic.json")]) == 2
    assert "nope.triadic.json: no such workflow file" in capsys.readouterr().err
