"""Databases the CLI cannot use are one clear line naming the path (exit 2), and are left untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE

from app.cli.main import main


def test_not_a_database_is_refused_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "notes.db"
    db.write_bytes(b"these are my notes, not a database\n" * 100)
    before = db.read_bytes()
    assert main(["runs", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"cannot open trace database {db}" in err and "Traceback" not in err
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 2
    assert f"cannot open trace database {db}" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_directory_as_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "abc", "--db", str(tmp_path)]) == 2
    assert "is a directory, expected a database file" in capsys.readouterr().err


def test_default_db_comes_from_triadic_db(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "env.db"
    monkeypatch.setenv("TRIADIC_DB", str(db))
    assert main(["run", str(EXAMPLE), "--quiet"]) == 0
    assert f"db: {db}" in capsys.readouterr().out
    assert main(["runs"]) == 0
    assert "succeeded" in capsys.readouterr().out
