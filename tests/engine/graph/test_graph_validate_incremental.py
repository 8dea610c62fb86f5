"""Incremental validation: with a memo kept across validations of snapshot copies, every result equals
a full validation of the workflow as it is, whatever was edited in between."""

from __future__ import annotations

import random

import pytest

import engine.graph.validate as validate_module
from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.snapshot import ValidationSnapshots
from engine.graph.validate import ValidationMemo, validate


def _edit(wf: Workflow, rng: random.Random, step: int) -> None:
    nodes = list(wf.nodes.values())
    node = rng.choice(nodes)
    choice = step % 7
    if choice == 0:
        wf.set_title(node.id, f"Renamed {step}")
    elif choice == 1 and "model" in node.params:
        wf.set_param(node.id, "model", rng.choice(["", "sim/fast", "gpt-4o-mini", 3]))
    elif choice == 2 and wf.edges:
        wf.remove_edge(rng.choice(list(wf.edges)))
    elif choice == 3:
        wf.add_edge(Edge(f"x{step}", node.id, "result", rng.choice(nodes).id, "context"))
    elif choice == 4:
        wf.add_node(Node(f"new_{step}", rng.choice(["executor", "critic", "nonsense"]), "", {}, NodeUi()))
    elif choice == 5:
        for edge in wf.edges_of(node.id):
            wf.remove_edge(edge.id)
        wf.remove_node(node.id)
    else:
        wf.set_param(node.id, "max_rounds", rng.choice([0, 2, -1, "many"]))


def test_incremental_results_equal_a_full_validation_after_any_edits() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        wf = generate_workflow(150, edges_per_node=2.5, seed=seed)
        snapshots, memo = ValidationSnapshots(wf), ValidationMemo()
        assert validate(snapshots.take(), memo) == validate(wf) == []
        for step in range(60):
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
