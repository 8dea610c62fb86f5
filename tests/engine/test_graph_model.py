"""The workflow model announces every change once, after making it, and guards its invariants."""

from __future__ import annotations

import pytest

from engine.graph import ROLES, Edge, Node, Role, Workflow, role_spec, types_compatible
from engine.graph.model import WorkflowChange


def _recorded(wf: Workflow) -> list[WorkflowChange]:
    seen: list[WorkflowChange] = []
    wf.subscribe(seen.append)
    return seen


def test_every_mutation_announces_one_change_after_it_is_made() -> None:
    wf = Workflow("w")
    seen = _recorded(wf)
    states: list[int] = []
    wf.subscribe(lambda c: states.append(len(wf.nodes)))
    wf.add_node(Node("planner_1", "planner"))
    wf.add_node(Node("executor_1", "executor"))
    wf.add_edge(Edge("e1", "planner_1", "plan", "executor_1", "task"))
    wf.set_param("executor_1", "temperature", 0.5)
    wf.set_title("executor_1", "Do it")
    wf.move_node("executor_1", 10, 20)
    wf.set_node_ui("executor_1", color="#ff0000")
    wf.remove_edge("e1")
    wf.remove_node("planner_1")
    kinds = [c.kind for c in seen]
    assert kinds == ["node_added", "node_added", "edge_added", "node_changed", "node_changed",
                     "node_moved", "node_changed", "edge_removed", "node_removed"]
    assert seen[3].field == "params.temperature"
    assert states[0] == 1  # listener saw the node already added
    assert wf.nodes["executor_1"].ui.x == 10 and wf.nodes["executor_1"].params["temperature"] == 0.5


def test_removing_a_connected_node_is_refused_and_duplicates_rejected() -> None:
    wf = Workflow()
    wf.add_node(Node("a", "input"))
    wf.add_node(Node("b", "output"))
    wf.add_edge(Edge("e1", "a", "value", "b", "value"))
    with pytest.raises(ValueError, match="still has 1 edge"):
        wf.remove_node("a")
    with pytest.raises(ValueError):
        wf.add_node(Node("a", "input"))
    with pytest.raises(ValueError):
        wf.add_edge(Edge("e1", "a", "value", "b", "value"))
    assert set(wf.nodes) == {"a", "b"}


def test_unsubscribe_stops_notifications() -> None:
    wf = Workflow()
    seen: list[WorkflowChange] = []
    unsubscribe = wf.subscribe(seen.append)
    wf.add_node(Node("a", "input"))
    unsubscribe()
    wf.add_node(Node("b", "input"))
    assert len(seen) == 1


def test_params_fall_back_to_role_defaults_and_router_ports_follow_routes() -> None:
    node = Node("r", "router")
    assert [p.name for p in node.output_ports()] == ["a", "b"]
    node.params["routes"] = ["cheap", "strong"]
    assert [p.name for p in node.output_ports()] == ["cheap", "strong"]
    critic = Node("c", "critic")
    assert critic.param("max_rounds") == 3
    assert critic.port("subject", output=False) is not None
    assert Node("x", "no-such-role").output_ports() == ()


def test_fresh_ids_do_not_clash() -> None:
    wf = Workflow()
    wf.add_node(Node(wf.new_node_id("executor"), "executor"))
    assert wf.new_node_id("executor") == "executor_2"


def test_catalog_covers_every_role_and_port_types_are_compatible() -> None:
    assert set(ROLES) == set(Role)
    assert role_spec("nope") is None
    for spec in ROLES.values():
        if spec.loop_bound:
            assert spec.param(spec.loop_bound) is not None
    assert types_compatible("plan", "task")
    assert types_compatible("any", "verdict")
    assert not types_compatible("verdict", "task")


def test_every_parameter_has_a_readable_label() -> None:
    from engine.graph.roles import ROLES

    labels = {p.name: p.label for spec in ROLES.values() for p in spec.params}
    assert labels["timeout_s"] == "Timeout (s)" and labels["max_cost_usd"] == "Cost budget (USD)"
    assert labels["system_prompt"] == "System prompt" and labels["read_only_tools"] == "Read-only tools"
    assert all(label[:1].isupper() and "_" not in label for label in labels.values())
