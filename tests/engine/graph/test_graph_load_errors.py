"""Loading bad input: every failure is a WorkflowFileError with a message saying what and where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.graph.format import (
    WorkflowFileError,
    dumps_workflow,
    load_workflow,
    loads_workflow,
    workflow_from_dict,
)
from engine.graph.generate import generate_workflow
from engine.graph.jsontext import MAX_DEPTH, MAX_NODES, MAX_STRING_CHARS

VALID = dumps_workflow(generate_workflow(6))


def problem_of(text: str | bytes) -> str:
    with pytest.raises(WorkflowFileError) as info:
        loads_workflow(text, source="t.json")
    assert info.value.source == "t.json" and info.value.problems
    assert str(info.value).startswith("Cannot read workflow t.json:\n  - ")
    return str(info.value)


def test_bad_json_reports_line_and_column() -> None:
    message = problem_of('{\n  "format": "triadic.workflow",\n  "version": 1,\n  oops\n}')
    assert "line 4, column 3" in message


@pytest.mark.parametrize(("text", "expected"), [
    ("[1, 2]", "must be a JSON object, not a list"),
    ('"hello"', "must be a JSON object"),
    ("null", "must be a JSON object"),
    ("", "Not valid JSON at line 1, column 1"),
    ("{}", "not a Triadic workflow"),
    ('{"format": "triadic.workflow"}', 'no "version"'),
    ('{"format": "triadic.workflow", "version": "1"}', "must be a whole number"),
    ('{"format": "triadic.workflow", "version": true}', "must be a whole number"),
    ('{"format": "triadic.workflow", "version": -1}', "Unknown format version -1"),
    ('{"format": "other", "version": 1}', "At format: 'triadic.workflow' was expected"),
    ('{"format": "triadic.workflow", "version": 1, "nodes": [{"id": "a", "role": 3}]}',
     "At nodes[0].role: 3 is not of type 'string'"),
    ('{"format": "triadic.workflow", "version": 1, "nodes": [{"id": "a", "role": "input", "ui": {"x": "1"}}]}',
     "At nodes[0].ui.x"),
    ('{"format": "triadic.workflow", "version": 1, "settings": {"concurrency": 1.5}}', "At settings.concurrency"),
    ('{"format": "triadic.workflow", "version": 1, "extra": 1}', "'extra' was unexpected"),
    ('{"format": "triadic.workflow", "version": 1, "edges": [{"id": "e"}]}', "At edges[0]: 'source' is a required"),
    ('{"format": "triadic.workflow", "version": 1, "settings": {"seed": NaN}}', "NaN is not a valid JSON number"),
    ('{"format": "triadic.workflow", "version": 1, "settings": {"seed": 1e999}}', "too large"),
    ('{"format": "triadic.workflow", "version": 1, "id": ' + "9" * 5000 + "}", "Not a valid workflow file"),
    ('{"format": "triadic.workflow", "version": 1, "name": "\\ud800"}', "lone surrogate"),
])
def test_bad_documents_are_refused_with_a_located_message(text: str, expected: str) -> None:
    assert expected in problem_of(text)


def test_newer_version_is_refused() -> None:
    message = problem_of('{"format": "triadic.workflow", "version": 7, "nodes": []}')
    assert "made by a newer Triadic (version 7); this one reads up to 3" in message


def test_every_structural_error_is_reported() -> None:
    data = json.loads(VALID)
    data["nodes"][0]["ui"]["x"] = "left"
    data["nodes"][2]["params"] = []
    data["edges"][1]["target"] = 5
    with pytest.raises(WorkflowFileError) as info:
        workflow_from_dict(data)
    fields = [p.field for p in info.value.problems]
    assert fields == ["edges[1].target", "nodes[0].ui.x", "nodes[2].params"]


def test_duplicate_ids_are_refused() -> None:
    data = json.loads(VALID)
    data["nodes"].append(dict(data["nodes"][0]))
    data["edges"].append(dict(data["edges"][0]))
    with pytest.raises(WorkflowFileError) as info:
        workflow_from_dict(data)
    assert [p.code for p in info.value.problems] == ["duplicate_node_id", "duplicate_edge_id"]


def test_deep_nesting_is_refused() -> None:
    deep = "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5)
    assert "nested more than" in problem_of('{"format": "triadic.workflow", "version": 1, "ui": {"a": ' + deep + "}}")
    assert "nested" in problem_of("[" * 100_000 + "]" * 100_000)


def test_huge_strings_and_too_many_nodes_are_refused() -> None:
    long_name = json.dumps("x" * (MAX_STRING_CHARS + 1))
    assert "longer than the 1,000,000 allowed" in problem_of(
        '{"format": "triadic.workflow", "version": 1, "name": ' + long_name + "}")
    nodes = json.dumps([{"id": str(i), "role": "input"} for i in range(MAX_NODES + 1)])
    assert "at most 100,000 are supported" in problem_of(
        '{"format": "triadic.workflow", "version": 1, "nodes": ' + nodes + "}")


def test_binary_garbage_is_not_a_workflow(tmp_path: Path) -> None:
    path = tmp_path / "x.triadic.json"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(WorkflowFileError, match="not UTF-8 text"):
        load_workflow(path)
    assert "not UTF-8 text" in problem_of(b"\xff\xfe\x00garbage")


def test_missing_file_and_folder_are_clear(tmp_path: Path) -> None:
    with pytest.raises(WorkflowFileError, match="no such file"):
        load_workflow(tmp_path / "missing.triadic.json")
    with pytest.raises(WorkflowFileError, match="folder, not a workflow file"):
        load_workflow(tmp_path)


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.triadic.json"
    path.write_bytes(b"\xef\xbb\xbf" + VALID.encode())
    assert len(load_workflow(path).nodes) == 6


def test_from_dict_refuses_values_json_cannot_hold() -> None:
    data = json.loads(VALID)
    data["nodes"][0]["params"]["bad"] = {1, 2}
    with pytest.raises(WorkflowFileError, match="not a JSON value"):
        workflow_from_dict(data)
    data["nodes"][0]["params"]["bad"] = {1: "x"}
    with pytest.raises(WorkflowFileError, match="key 1 is not text"):
        workflow_from_dict(data)
    with pytest.raises(WorkflowFileError, match="not a list"):
        workflow_from_dict([])  # type: ignore[arg-type]


def test_structural_errors_come_in_document_order() -> None:
    data = json.loads(dumps_workflow(generate_workflow(15)))
    data["nodes"][10]["role"] = 1
    data["nodes"][2]["role"] = 2
    with pytest.raises(WorkflowFileError) as info:
        workflow_from_dict(data)
    assert [p.field for p in info.value.problems] == ["nodes[2].role", "nodes[10].role"]


def test_odd_paths_and_inputs_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(WorkflowFileError, match="not a valid file name"):
        load_workflow(str(tmp_path / "a\0b"))
    with pytest.raises(WorkflowFileError, match="not NoneType"):
        loads_workflow(None)  # type: ignore[arg-type]
