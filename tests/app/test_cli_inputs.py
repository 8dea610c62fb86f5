"""`--input` values (issue 14): from a file or stdin, cleaned of lone surrogates, key-like refused."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from app.cli.errors import CliError
from app.cli.input_values import clean_text, resolve_inputs
from app.cli.main import main

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "triad.triadic.json"


def test_values_come_from_a_file_or_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = "line\n" * 50_000
    (tmp_path / "goal.txt").write_text(big)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"from stdin")))
    values = resolve_inputs({"a": f"@{tmp_path / 'goal.txt'}", "b": "@-", "c": "@@literal", "d": "plain"})
    assert values == {"a": big, "b": "from stdin", "c": "@literal", "d": "plain"}
    with pytest.raises(CliError, match="cannot read the file"):
        resolve_inputs({"a": f"@{tmp_path / 'missing.txt'}"})


def test_lone_surrogates_become_replacement_characters() -> None:
    assert clean_text("a\udced\udca0\udc80b") == "a\ufffd\ufffd\ufffdb"
    assert clean_text("x\ud800y") == "x\ufffdy"
    assert clean_text("plain é") == "plain é"


def test_a_key_like_input_is_refused_before_anything_runs(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--input", "goal=use sk-abcdefghijklmnop1234"]) == 2
    assert not db.exists()


def test_an_input_with_surrogates_is_stored_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--json",
                 "--input", "goal=tea \udced\udca0\udc80"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["inputs"]["goal"] == "tea \ufffd\ufffd\ufffd"
