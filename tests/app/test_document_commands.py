"""Document + undo commands: each edit changes the model exactly and undo restores it exactly."""

from __future__ import annotations

import copy

import pytest
from doc_fixtures import snapshot

from app.commands import (
    AddEdgeCommand,
    AddNodeCommand,
    MoveNodesCommand,
    SetParamCommand,
    SetRunSettingsCommand,
    SetTitleCommand,
    add_comment_command,
    align_positions,
    delete_comment_command,
    edit_comment_command,
    group_command,
    paste_command,
    remove_command,
    ungroup_command,
)
from app.document import Document
from engine.graph.fragment import copy_fragment, paste_fragment
from engine.graph.layout import node_box
from engine.graph.model import Budget, Edge, Node, NodeUi, RunSettings, Workflow


def _roundtrip(doc: Document, command: object) -> tuple[dict, dict]:
    """Push, check undo restores the start exactly and redo the edit exactly; return (before, after)."""
    before = snapshot(doc.workflow)
    doc.push(command)  # type: ignore[arg-type]
    after = snapshot(doc.workflow)
    assert after != before
    doc.undo()
    assert snapshot(doc.workflow) == before
    doc.redo()
    assert snapshot(doc.workflow) == after
    return before, after


def test_add_node_and_undo(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    _, after = _roundtrip(doc, AddNodeCommand(triad, Node("tool_1", "tool", "T", {}, NodeUi(5, 6))))
    assert next(n for n in after["nodes"] if n["id"] == "tool_1")["ui"]["x"] == 5


def test_connect_and_remove_edge(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    doc.push(remove_command(triad, [], ["e2"]))
    assert "e2" not in triad.edges
    _roundtrip(doc, AddEdgeCommand(triad, Edge("e9", "plan", "plan", "exec", "task")))
    assert triad.edges["e9"].target_port == "task"


def test_remove_nodes_removes_their_edges_first_and_undo_restores(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    _, after = _roundtrip(doc, remove_command(triad, ["plan", "exec"], []))
    assert {n["id"] for n in after["nodes"]} == {"goal", "review", "result"}
    assert [e["id"] for e in after["edges"]] == ["e4"]


def test_move_merges_consecutive_drags_but_not_align(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    start = snapshot(triad)
    doc.push(MoveNodesCommand(triad, {"plan": (240.0, 0.0)}, {"plan": (250.0, 5.0)}))
    doc.push(MoveNodesCommand(triad, {"plan": (250.0, 5.0)}, {"plan": (300.0, 50.0)}))
    assert doc.undo_stack.count() == 1
    assert (triad.nodes["plan"].ui.x, triad.nodes["plan"].ui.y) == (300.0, 50.0)
    doc.push(MoveNodesCommand(triad, {}, {"plan": (0.0, 0.0)}, "Align", mergeable=False))
    assert doc.undo_stack.count() == 2
    doc.undo()
    doc.undo()
    assert snapshot(triad) == start


def test_set_param_title_settings_undo(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    _roundtrip(doc, SetParamCommand(triad, "plan", "max_tasks", 3))
    assert triad.nodes["plan"].params == {"max_tasks": 3}
    doc.undo()
    assert "max_tasks" not in triad.nodes["plan"].params  # unset again, not set to the default
    _roundtrip(doc, SetTitleCommand(triad, "plan", "Planner!"))
    settings = RunSettings(Budget(1000, 0.5, 60.0, 9), 3, 42)
    _roundtrip(doc, SetRunSettingsCommand(triad, settings))
    assert triad.settings == settings
    settings.concurrency = 99  # the command keeps its own copy
    assert triad.settings.concurrency == 3


def test_paste_fragment_adds_fresh_nodes_and_undo(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    nodes, edges = paste_fragment(triad, copy_fragment(triad, ["plan", "exec"]))
    _, after = _roundtrip(doc, paste_command(triad, nodes, edges))
    assert len(after["nodes"]) == 7 and len(after["edges"]) == 5
    assert {e.source for e in edges} <= {n.id for n in nodes}


@pytest.mark.parametrize("how", ["left", "right", "top", "bottom", "hcenter", "vcenter", "hdistribute",
                                 "vdistribute"])
def test_align_positions(triad: Workflow, how: str) -> None:
    triad.move_node("exec", 500.0, 300.0)
    result = align_positions(triad, ["goal", "plan", "exec"], how)
    box = {n: node_box(triad.nodes[n]) for n in result}
    edge = {"left": lambda n: result[n][0], "right": lambda n: result[n][0] + box[n][0],
            "hcenter": lambda n: result[n][0] + box[n][0] / 2, "top": lambda n: result[n][1],
            "bottom": lambda n: result[n][1] + box[n][1], "vcenter": lambda n: result[n][1] + box[n][1] / 2}
    if how in edge:
        assert len({round(edge[how](n), 6) for n in result}) == 1
        other = 1 if how in ("left", "right", "hcenter") else 0
        assert {p[other] for p in result.values()} == ({0.0, 300.0} if other else {0.0, 240.0, 500.0})
    elif how == "hdistribute":
        assert sorted(p[0] for p in result.values()) == [0.0, 250.0, 500.0]
    else:
        middles = sorted(result[n][1] + box[n][1] / 2 for n in result)
        assert middles[1] - middles[0] == pytest.approx(middles[2] - middles[1])


def test_comments_add_edit_delete_undo(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    _roundtrip(doc, add_comment_command(triad, 10.0, 20.0, "note"))
    (comment,) = triad.ui["comments"]
    assert (comment["x"], comment["text"], comment["id"]) == (10.0, "note", "c1")
    _roundtrip(doc, edit_comment_command(triad, "c1", {"text": "changed", "w": 300.0}))
    assert triad.ui["comments"][0]["text"] == "changed"
    _roundtrip(doc, delete_comment_command(triad, "c1"))
    assert "comments" not in triad.ui
    with pytest.raises(KeyError):
        delete_comment_command(triad, "c99")


def test_group_and_ungroup_are_inverse(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    original = snapshot(triad)
    _, grouped = _roundtrip(doc, group_command(triad, ["plan", "exec"]))
    group = triad.nodes["subgraph_1"]
    inner = group.params["graph"]
    assert {n["id"] for n in inner["nodes"]} == {"plan", "exec", "group_input", "group_output"}
    assert {n["id"] for n in grouped["nodes"]} == {"goal", "review", "result", "subgraph_1"}
    assert triad.edges["e1"].target == "subgraph_1" and triad.edges["e1"].target_port == "input"
    assert triad.edges["e3"].source == "subgraph_1" and triad.edges["e3"].source_port == "output"
    _roundtrip(doc, ungroup_command(triad, "subgraph_1"))
    assert snapshot(triad) == original
    doc.undo()
    doc.undo()
    assert snapshot(triad) == original
    assert not doc.is_modified()


def test_ungroup_renames_clashing_ids_and_follows_a_moved_group(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    doc.push(group_command(triad, ["exec"]))
    doc.push(AddNodeCommand(triad, Node("exec", "executor", "Other", {}, NodeUi(0, 500))))
    doc.push(MoveNodesCommand(triad, {}, {"subgraph_1": (580.0, 100.0)}))
    doc.push(ungroup_command(triad, "subgraph_1"))
    restored = [n for n in triad.nodes.values() if n.title == "Exec"]
    assert len(restored) == 1 and restored[0].id != "exec"
    assert (restored[0].ui.x, restored[0].ui.y) == (580.0, 100.0)
    assert {(e.source, e.target) for e in triad.edges.values()} >= {("plan", restored[0].id),
                                                                     (restored[0].id, "review")}


def test_ungroup_refuses_other_nodes(qapp: object, triad: Workflow) -> None:
    with pytest.raises(ValueError, match="not a sub-graph"):
        ungroup_command(triad, "plan")


def test_clean_state_and_modified_signal(qapp: object, triad: Workflow, tmp_path: object) -> None:
    doc = Document(triad)
    seen: list[bool] = []
    doc.modified_changed.connect(seen.append)
    assert not doc.is_modified()
    doc.push(SetTitleCommand(triad, "plan", "X"))
    assert doc.is_modified() and seen == [True]
    doc.undo()
    assert not doc.is_modified() and seen == [True, False]
    doc.redo()
    path = str(tmp_path) + "/t.triadic.json"  # type: ignore[operator]
    doc.save(path)
    assert not doc.is_modified() and seen[-1] is False and doc.path == path


def test_save_reopen_round_trips(qapp: object, triad: Workflow, tmp_path: object) -> None:
    doc = Document(triad)
    doc.push(group_command(triad, ["plan", "exec"]))
    doc.push(add_comment_command(triad, 1.0, 2.0, "hello"))
    path = f"{tmp_path}/round.triadic.json"
    doc.save(path)
    other = Document()
    replaced: list[Workflow] = []
    other.workflow_replaced.connect(replaced.append)
    other.open_file(path)
    assert snapshot(other.workflow) == snapshot(triad)
    assert replaced == [other.workflow] and other.path == path and not other.is_modified()


def test_broken_file_leaves_file_and_document_untouched(qapp: object, triad: Workflow, tmp_path: object) -> None:
    from engine.graph.problems import WorkflowFileError

    doc = Document(triad, path="keep.triadic.json")
    doc.push(SetTitleCommand(triad, "plan", "Edited"))
    before = copy.deepcopy(snapshot(triad))
    broken = f"{tmp_path}/broken.triadic.json"
    raw = b'{"format": "triadic.workflow", "version": 1, "nodes": [{"id": 3}], "edges": 7}'
    with open(broken, "wb") as handle:
        handle.write(raw)
    with pytest.raises(WorkflowFileError) as caught:
        doc.open_file(broken)
    assert caught.value.problems
    with open(broken, "rb") as handle:
        assert handle.read() == raw
    assert doc.workflow is triad and snapshot(triad) == before
    assert doc.path == "keep.triadic.json" and doc.is_modified() and doc.undo_stack.count() == 1


def test_consecutive_edits_of_one_param_merge(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    for value in (3, 4, 5):
        doc.push(SetParamCommand(triad, "plan", "max_tasks", value))
    doc.push(SetParamCommand(triad, "plan", "max_replans", 1))
    assert doc.undo_stack.count() == 2 and triad.nodes["plan"].params["max_tasks"] == 5
    doc.undo()
    doc.undo()
    assert triad.nodes["plan"].params == {}


def test_replace_clears_history_and_announces(qapp: object, triad: Workflow) -> None:
    doc = Document(triad)
    doc.push(SetTitleCommand(triad, "plan", "X"))
    modified: list[bool] = []
    replaced: list[Workflow] = []
    doc.modified_changed.connect(modified.append)
    doc.workflow_replaced.connect(replaced.append)
    blank = Workflow()
    doc.replace(blank)
    assert modified == [False] and replaced == [blank] and doc.workflow is blank
    assert doc.undo_stack.count() == 0 and doc.display_name() == "Untitled"
