"""The per-node `concurrency` param: declared by every role that runs work in parallel inside one node
(executor, vote, map), validated as a whole number 0..1000, described in the published schema, and
absent from old files without changing what they do (no migration: the default is the old behaviour)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.graph.format import dumps_workflow, loads_workflow
from engine.graph.model import Edge, Node, Workflow
from engine.graph.roles import ROLES, role_spec
from engine.graph.schema import WORKFLOW_SCHEMA, structural_problems
from engine.graph.validate import validate
from engine.runtime import compile_workflow

FAN_OUT_ROLES = ("executor", "vote", "map")
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def one_node(role: str, params: dict[str, Any]) -> Workflow:
    """An input feeding one `role` node (n): complete enough to compile."""
    wf = Workflow("w")
    wf.add_node(Node("in", "input", "In", {}))
    wf.add_node(Node("n", role, "N", params))
    port = {"map": "items", "planner": "goal"}.get(role, "task")
    wf.add_edge(Edge("e1", "in", "value", "n", port))
    return wf


def test_the_fan_out_roles_declare_it_alike_and_the_others_do_not() -> None:
    declared = {spec.role.value: spec.param("concurrency") for spec in ROLES.values() if spec.param("concurrency")}
    assert set(declared) == set(FAN_OUT_ROLES)
    for p in declared.values():
        assert p is not None and (p.kind, p.minimum, p.maximum) == ("int", 0, 1000)
        assert "0 = only the run's cap" in p.help
    assert {role: p.default for role, p in declared.items() if p} == {"executor": 0, "vote": 0, "map": 4}


@pytest.mark.parametrize("role", FAN_OUT_ROLES)
@pytest.mark.parametrize("value", [-1, 1001, 2.5, "3", True, None, [2]])
def test_a_bad_value_is_an_error_on_that_param(role: str, value: Any) -> None:
    problems = [p for p in validate(one_node(role, {"concurrency": value})) if p.field == "params.concurrency"]
    assert [(p.code, p.severity, p.node_id) for p in problems] == [("bad_param", "error", "n")]
    assert "'concurrency'" in problems[0].message
    assert not structural_problems(json.loads(dumps_workflow(one_node(role, {"concurrency": value}))))  # it opens


@pytest.mark.parametrize("role", FAN_OUT_ROLES)
@pytest.mark.parametrize("value", [0, 1, 1000])
def test_zero_and_whole_numbers_up_to_1000_are_fine(role: str, value: int) -> None:
    assert not [p for p in validate(one_node(role, {"concurrency": value})) if p.field == "params.concurrency"]
    assert compile_workflow(one_node(role, {"concurrency": value})).nodes["n"].setup.concurrency == value


def test_other_roles_warn_about_it_and_are_not_capped_by_it() -> None:
    wf = one_node("planner", {"concurrency": 2})
    assert [(p.code, p.severity) for p in validate(wf) if p.field == "params.concurrency"] == [
        ("unknown_param", "warning")]
    assert compile_workflow(wf).nodes["n"].setup.concurrency == 0


def test_an_old_file_without_it_loads_and_keeps_its_behaviour() -> None:
    text = (EXAMPLES / "hanoi.triadic.json").read_text(encoding="utf-8")
    assert '"concurrency": ' not in text.split('"nodes"', 1)[1]  # written before the param existed
    plan = compile_workflow(loads_workflow(text))
    for node in plan.nodes.values():
        spec = role_spec(node.role)
        if spec is not None and spec.param("concurrency") is not None:
            assert node.setup.concurrency == (4 if node.role == "map" else 0)  # 0: only the run's cap
    wf = one_node("vote", {"concurrency": 3})
    assert loads_workflow(dumps_workflow(wf)).nodes["n"].params["concurrency"] == 3  # save → load keeps it


def test_the_published_schema_describes_it_without_constraining_it() -> None:
    note = WORKFLOW_SCHEMA["$defs"]["node"]["properties"]["params"]["properties"]["concurrency"]
    assert set(note) == {"description"}
    assert "Roles: executor, map, vote" in note["description"] and "0 = only the run's cap" in note["description"]
