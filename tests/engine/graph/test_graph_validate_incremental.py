"""Incremental validation: with a memo kept across validations of snapshot copies, every result equals
a full validation of the workflow as it is, whatever was edited in between — including the edits its
shortcuts depend on (repeated edges, loops made or broken, loop bounds, contracts and the nodes
they name, edges to a node before it exists) — and an edit is checked only as far as it reaches."""

from __future__ import annotations

import random

import pytest

import engine.graph.edge_checks as edge_checks_module
import engine.graph.graph_checks as graph_checks_module
import engine.graph.validate as validate_module
from engine.graph.contract_form import Contract
from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.snapshot import ValidationSnapshots
from engine.graph.validate import ValidationMemo, validate


def _edit(wf: Workflow, rng: random.Random, step: int) -> None:
    nodes = list(wf.nodes.values())
    node, other = rng.choice(nodes), rng.choice(nodes)
    choice = step % 13
    if choice == 0:
        wf.set_title(node.id, f"Renamed {step}")
    elif choice == 1 and "model" in node.params:
        wf.set_param(node.id, "model", rng.choice(["", "sim/fast", "gpt-4o-mini", 3]))
    elif choice == 2 and wf.edges:
        wf.remove_edge(rng.choice(list(wf.edges)))
    elif choice == 3:
        wf.add_edge(Edge(f"x{step}", node.id, "result", other.id, "context"))
    elif choice == 4:
        role, params = rng.choice([("executor", {}), ("critic", {"require_other_family": True}), ("nonsense", {}),
                                   ("input", {}), ("memory", {"gated": True, "mode": "write"}),
                                   ("verifier", {"check": "python", "expression": "1 +"})])
        wf.add_node(Node(f"new_{step}", role, "", params, NodeUi()))
        wf.add_edge(Edge(f"n{step}", other.id, "verdict", f"new_{step}", rng.choice(["gate", "subject"])))
    elif choice == 5:
        for edge in wf.edges_of(node.id):
            wf.remove_edge(edge.id)
        wf.remove_node(node.id)
    elif choice == 6:
        wf.set_param(node.id, "max_rounds", rng.choice([0, 2, -1, "many"]))
    elif choice == 7 and wf.edges:  # a repeat of an existing edge's ends
        edge = rng.choice(list(wf.edges.values()))
        wf.add_edge(Edge(f"r{step}", edge.source, edge.source_port, edge.target, edge.target_port))
    elif choice == 8:  # an edge back, closing a loop (bounded or not)
        wf.add_edge(Edge(f"b{step}", other.id, "result", node.id, "task"))
    elif choice == 9:  # an edge to a node that does not exist yet (choice 10 adds it)
        wf.add_edge(Edge(f"g{step}", node.id, "result", f"ghost_{step + 1}", "task"))
    elif choice == 10:
        wf.add_node(Node(f"ghost_{step}", "executor", "Ghost", {}, NodeUi()))
    elif choice == 11:
        named = (node.id, other.id, "missing")
        wf.set_contracts(rng.choice([(), (Contract("max_calls", limit=3, nodes=named),),
                                     (Contract("gated_tool_writes", tools=("web_*", "search"), gates=named),)]))
    else:  # a node that may call tools, or a gate, changes what a contract names
        wf.set_param(node.id, "tools", rng.choice([[], ["search"], ["web_fetch"]]))


def test_incremental_results_equal_a_full_validation_after_any_edits() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        wf = generate_workflow(150, edges_per_node=2.5, seed=seed)
        snapshots, memo = ValidationSnapshots(wf), ValidationMemo()
        assert validate(snapshots.take(), memo) == validate(wf) == []
        for step in range(130):
            _edit(wf, rng, step)
            if step % 3 == 0:  # several edits between validations, as a burst of typing gives
                assert validate(snapshots.take(), memo) == validate(wf), (seed, step)
        assert validate(snapshots.take(), memo) == validate(wf) != []


def test_an_unchanged_node_or_edge_is_not_checked_again(monkeypatch: pytest.MonkeyPatch) -> None:

    wf = generate_workflow(60, seed=2)
    snapshots, memo = ValidationSnapshots(wf), ValidationMemo()
    validate(snapshots.take(), memo)
    checked: list[str] = []
    real = validate_module.param_problems

    def counting(node: Node, spec: object) -> list[object]:
        checked.append(node.id)
        return real(node, spec)  # type: ignore[arg-type]

    monkeypatch.setattr(validate_module, "param_problems", counting)
    node_id = next(iter(wf.nodes))
    wf.set_title(node_id, "Only this one changed")
    validate(snapshots.take(), memo)
    assert checked == [node_id]


def test_an_edit_rechecks_only_the_edges_loops_and_contracts_it_reaches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    wf = generate_workflow(60, seed=5)
    wf.set_contracts((Contract("max_calls", limit=3, nodes=(next(iter(wf.nodes)),)),))
    snapshots, memo = ValidationSnapshots(wf), ValidationMemo()
    validate(snapshots.take(), memo)
    calls: list[str] = []
    real_message = edge_checks_module.edge_message
    monkeypatch.setattr(edge_checks_module, "edge_message",
                        lambda w, edge, i, o: calls.append(edge.id) or real_message(w, edge, i, o))
    monkeypatch.setattr(graph_checks_module, "unbounded_cycles", lambda w: calls.append("cycles") or [])
    monkeypatch.setattr(graph_checks_module, "contract_problems", lambda w: calls.append("contracts") or [])
    node_id = list(wf.nodes)[30]
    wf.set_title(node_id, "Only this one changed")
    validate(snapshots.take(), memo)
    assert sorted(calls) == sorted(e.id for e in wf.edges_of(node_id))
    calls.clear()
    wf.remove_edge(wf.edges_of(node_id)[0].id)  # a removal in a graph without loops cannot make one
    validate(snapshots.take(), memo)
    assert calls == []
    for node_id in ("p", "q"):
        wf.add_node(Node(node_id, "executor", node_id, {}, NodeUi()))
    wf.add_edge(Edge("p_q", "p", "result", "q", "context"))  # q leads nowhere: no loop to look for
    validate(snapshots.take(), memo)
    assert "cycles" not in calls
    calls.clear()
    wf.add_edge(Edge("q_p", "q", "result", "p", "context"))  # p leads back to q: the loop is searched
    validate(snapshots.take(), memo)
    assert calls == ["q_p", "cycles"]
    calls.clear()
    wf.set_title(next(iter(wf.nodes)), "Named by the contract")
    validate(snapshots.take(), memo)
    assert "contracts" in calls and "cycles" not in calls


def test_a_loop_is_gone_once_an_edge_of_it_is_removed_or_a_node_of_it_bounds_it() -> None:
    wf = generate_workflow(40, seed=6)
    snapshots, memo = ValidationSnapshots(wf), ValidationMemo()
    critic = next(n for n in wf.nodes.values() if n.role == "critic")
    executors = [n.id for n in wf.nodes.values() if n.role == "executor"][:2]
    for index, (source, target) in enumerate(zip(executors, [*executors[1:], executors[0]], strict=True)):
        wf.add_edge(Edge(f"loop{index}", source, "result", target, "context"))

    def loops() -> list[str]:
        found = validate(snapshots.take(), memo)
        assert found == validate(wf)
        return [p.code for p in found if p.code == "unbounded_loop"]

    assert loops() == ["unbounded_loop"]
    wf.remove_edge("loop0")
    assert loops() == []
    wf.set_param(critic.id, "max_rounds", 3)
    wf.add_edge(Edge("back", critic.id, "verdict", executors[0], "context"))
    wf.add_edge(Edge("forth", executors[0], "result", critic.id, "subject"))
    assert loops() == []
    wf.set_param(critic.id, "max_rounds", 0)  # no edge added: the bound alone makes the loop
    assert loops() == ["unbounded_loop"]
    wf.set_param(critic.id, "max_rounds", 3)
    assert loops() == []
