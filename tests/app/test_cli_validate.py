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


def test_a_sub_graph_file_is_checked_as_a_run_would(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.graph.format import save_workflow
    from engine.graph.model import Edge, Node, Workflow

    outer = Workflow("Outer")
    outer.add_node(Node("in", "input", "Goal", {"name": "goal"}))
    outer.add_node(Node("t", "subgraph", "Triad", {"path": "triad.triadic.json"}))
    outer.add_edge(Edge("e1", "in", "value", "t", "input"))
    path = tmp_path / "outer.triadic.json"
    save_workflow(outer, path)
    assert main(["validate", str(path)]) == 1  # the sub-graph's file is not there
    out = capsys.readouterr().out
    missing = tmp_path / "triad.triadic.json"
    assert f"error: Sub-graph 'Triad' (t), file {missing}: There is no such file. [node t, field params.path]" in out
    missing.write_text(EXAMPLE.read_text())
    assert main(["validate", str(path)]) == 0
    assert f"{path}: ok (2 nodes, 1 edges" in capsys.readouterr().out
