"""Validation snapshots: a taken copy is the workflow as it was, later edits never show in it."""

from __future__ import annotations

from engine.graph.contract_form import Contract
from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, RunSettings
from engine.graph.snapshot import ValidationSnapshots, validation_copy
from engine.graph.validate import validate


def test_a_copy_validates_like_the_workflow_and_ignores_later_edits() -> None:
    wf = generate_workflow(80, seed=3)
    snapshots = ValidationSnapshots(wf)
    before = snapshots.take()
    assert validate(before) == validate(wf) == []
    executor = next(n for n in wf.nodes.values() if n.role == "executor")
    wf.set_param(executor.id, "model", "")
    wf.set_title(executor.id, "Renamed")
    wf.remove_edge(next(iter(wf.edges)))
    wf.add_node(Node("extra", "executor", "Extra", {}, NodeUi()))
    wf.set_settings(RunSettings(concurrency=0))
    after = snapshots.take()
    assert validate(after) == validate(wf) != []
    assert validate(before) == []  # the earlier copy still holds the workflow as it was
    assert before.nodes[executor.id].title != "Renamed" and after.nodes[executor.id].title == "Renamed"
    assert list(after.nodes) == list(wf.nodes)


def test_a_copy_never_changes_the_workflow_and_follows_removals() -> None:
    wf = generate_workflow(20, seed=1)
    snapshots = ValidationSnapshots(wf)
    copy = snapshots.take()
    node = next(iter(copy.nodes.values()))
    node.params["model"] = "changed"
    assert wf.nodes[node.id].params.get("model") != "changed"
    wf.add_node(Node("gone", "executor", "Gone", {}, NodeUi()))
    wf.add_edge(Edge("e_gone", next(iter(wf.nodes)), "value", "gone", "task"))
    wf.remove_edge("e_gone")
    wf.remove_node("gone")
    assert "gone" not in snapshots.take().nodes
    snapshots.detach()
    wf.set_title(node.id, "after detach")
    assert validation_copy(wf).nodes[node.id].title == "after detach"


def test_a_copy_keeps_the_contracts_so_their_problems_are_found() -> None:
    wf = generate_workflow(20, seed=4)
    wf.set_contracts((Contract("max_calls", limit=3, nodes=("no_such_node",)),))
    copy = validation_copy(wf)
    assert copy.contracts == wf.contracts
    assert [p.code for p in validate(copy)] == [p.code for p in validate(wf)] == ["contract_unknown_node"]
