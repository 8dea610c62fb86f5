"""`triadic validate`: every problem with its location, exit 1 when any file has an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE, example_doc, write_doc

from app.cli.main import main


def test_example_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert f"{EXAMPLE}: ok (5 nodes, 5 edges" in out


def test_malformed_json_names_file_and_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.triadic.json"
    bad.write_text('{"format": "triadic.workflow",\n  "nodes": [\n', encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad}: error: ")
    assert "line" in out.lower()


def test_missing_file_is_reported_and_other_files_still_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.triadic.json"
    assert main(["validate", str(missing), str(EXAMPLE)]) == 1
    out = capsys.readouterr().out
    assert f"{missing}: error: " in out
    assert f"{EXAMPLE}: ok" in out


def test_invalid_graph_lists_every_problem_with_location(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["edges"] = [e for e in doc["edges"] if e["id"] != "e3"]  # the critic loses its subject
    doc["nodes"][2]["params"]["temperature"] = 9.0  # out of range on the executor
    path = write_doc(tmp_path / "broken.triadic.json", doc)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if ": error: " in line]
    assert any("[node critic" in line and "subject" in line for line in lines)
    assert any("[node executor" in line and "temperature" in line for line in lines)
    assert f"{path}: invalid — {len(lines)} error(s)" in out
    assert "Traceback" not in out
