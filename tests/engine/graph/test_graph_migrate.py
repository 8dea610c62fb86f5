"""Migration of pre-release (version 0) documents to the current format."""

from __future__ import annotations

import copy

import pytest

from engine.graph.format import WorkflowFileError, dumps_workflow, workflow_from_dict
from engine.graph.migrate import FORMAT_VERSION, MIGRATIONS, migrate
from engine.graph.validate import validate

V0 = {
    "name": "Old triad",
    "nodes": [
        {"id": "in", "type": "input", "title": "Goal", "params": {"name": "goal"}, "pos": [0, 10]},
        {"id": "plan.1", "type": "planner", "title": "Plan", "params": {}, "pos": [200.5, 0], "color": "#abc"},
        {"id": "do", "type": "executor", "params": {}, "pos": [400, 0]},
        {"id": "out", "type": "output", "params": {"name": "result"}},
    ],
    "edges": [
        {"from": "in.value", "to": "plan.1.goal"},
        {"id": "x7", "from": "plan.1.plan", "to": "do.task"},
        {"from": "do.result", "to": "out.value"},
    ],
}


def test_every_version_below_the_current_one_has_a_migration() -> None:
    assert sorted(MIGRATIONS) == list(range(FORMAT_VERSION))


def test_v0_document_migrates_to_v1() -> None:
    original = copy.deepcopy(V0)
    wf = workflow_from_dict(V0, source="old.json")
    assert original == V0  # the input is not touched
    assert [n.role for n in wf.nodes.values()] == ["input", "planner", "executor", "output"]
    plan = wf.nodes["plan.1"]
    assert (plan.ui.x, plan.ui.y, plan.ui.color) == (200.5, 0.0, "#abc")
    assert (wf.nodes["in"].ui.x, wf.nodes["in"].ui.y) == (0.0, 10.0)
    edges = list(wf.edges.values())
    assert [e.id for e in edges] == ["e1", "x7", "e3"]
    assert (edges[0].target, edges[0].target_port) == ("plan.1", "goal")
    assert (edges[1].source, edges[1].source_port) == ("plan.1", "plan")
    assert validate(wf) == []
    assert f'"version": {FORMAT_VERSION}' in dumps_workflow(wf)


def test_v0_with_explicit_version_zero_migrates() -> None:
    data = dict(V0, version=0)
    assert migrate(copy.deepcopy(data), "x")["format"] == "triadic.workflow"


def test_bad_v0_edge_endpoint_is_reported_with_its_location() -> None:
    data = copy.deepcopy(V0)
    data["edges"][2]["to"] = "out"
    with pytest.raises(WorkflowFileError) as info:
        workflow_from_dict(data)
    assert info.value.problems[0].field == "edges[2].to"
    assert 'not of the form "node.port"' in str(info.value)


def test_current_documents_are_returned_unchanged() -> None:
    data = {"format": "triadic.workflow", "version": FORMAT_VERSION, "nodes": []}
    assert migrate(data, "x") is data
