"""Copy / paste fragments: selection with internal edges, fresh ids, offsets, invalid clipboards."""

from __future__ import annotations

import json

import pytest

from engine.graph.fragment import copy_fragment, paste_fragment
from engine.graph.generate import generate_workflow
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError


def test_copy_keeps_only_edges_inside_the_selection() -> None:
    wf = generate_workflow(30, seed=4)
    chosen = list(wf.nodes)[5:15]
    fragment = copy_fragment(wf, [*chosen, "not-a-node"])
    assert fragment["format"] == "triadic.fragment" and fragment["version"] == 2
    assert [n["id"] for n in fragment["nodes"]] == chosen
    assert fragment["edges"]
    assert all(e["source"] in chosen and e["target"] in chosen for e in fragment["edges"])
    json.dumps(fragment)  # clipboard-ready


def test_paste_gives_fresh_ids_offsets_and_keeps_wiring() -> None:
    wf = generate_workflow(30, seed=4)
    chosen = list(wf.nodes)[5:15]
    fragment = copy_fragment(wf, chosen)
    nodes, edges = paste_fragment(wf, fragment, offset=(10.0, -5.0))
    assert len(nodes) == 10 and len(edges) == len(fragment["edges"])
    new_ids = {n.id for n in nodes}
    assert len(new_ids) == 10 and not new_ids & set(wf.nodes)
    assert not {e.id for e in edges} & set(wf.edges) and len({e.id for e in edges}) == len(edges)
    assert all(e.source in new_ids and e.target in new_ids for e in edges)
    for old, new in zip(chosen, nodes, strict=True):
        assert (new.role, new.title, new.params) == (wf.nodes[old].role, wf.nodes[old].title, wf.nodes[old].params)
        assert (new.ui.x, new.ui.y) == (wf.nodes[old].ui.x + 10.0, wf.nodes[old].ui.y - 5.0)
    assert len(wf.nodes) == 30  # paste does not insert
    for node in nodes:
        wf.add_node(node)
    for edge in edges:
        wf.add_edge(edge)
    nodes2, _ = paste_fragment(wf, fragment)
    assert not {n.id for n in nodes2} & set(wf.nodes)


def test_pasted_objects_share_nothing_with_the_fragment() -> None:
    wf = generate_workflow(10, seed=1)
    fragment = copy_fragment(wf, list(wf.nodes))
    nodes, _ = paste_fragment(Workflow(), fragment)
    nodes[0].params["name"] = "changed"
    assert fragment["nodes"][0]["params"]["name"] != "changed"


def test_a_whole_workflow_document_can_be_pasted() -> None:
    wf = generate_workflow(8)
    from engine.graph.format import workflow_to_dict
    nodes, edges = paste_fragment(wf, workflow_to_dict(wf))
    assert len(nodes) == 8 and len(edges) == len(wf.edges)


@pytest.mark.parametrize("fragment", [
    "text", [], {"format": "triadic.fragment", "version": 1, "nodes": [{"id": 1}], "edges": []},
    {"format": "triadic.fragment", "version": 1, "nodes": [], "edges": [
        {"id": "e", "source": "a", "source_port": "x", "target": "b", "target_port": "y"}]},
    {"format": "triadic.fragment", "version": 1, "nodes": [{"id": "a", "role": "executor",
                                                           "params": {"api_key": "k"}}], "edges": []},
])
def test_invalid_fragments_raise_workflow_file_error(fragment: object) -> None:
    with pytest.raises(WorkflowFileError) as info:
        paste_fragment(Workflow(), fragment)
    assert info.value.problems and str(info.value).startswith("Cannot paste workflow <clipboard>:")


def test_copying_a_node_that_holds_a_key_is_refused() -> None:
    wf = generate_workflow(5)
    node_id = next(iter(wf.nodes))
    wf.nodes[node_id].params["api_key"] = "k"
    with pytest.raises(WorkflowFileError) as info:
        copy_fragment(wf, [node_id])
    assert str(info.value).startswith("Cannot copy workflow <clipboard>:") and "api_key" in str(info.value)
