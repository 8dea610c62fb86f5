"""Generated workflows: valid, layered, sized as asked, deterministic per seed."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.graph.format import dumps_workflow
from engine.graph.generate import generate_workflow
from engine.graph.validate import validate


@pytest.mark.parametrize("n", [2, 3, 7, 60, 1000])
def test_generated_workflows_are_valid_and_sized(n: int) -> None:
    wf = generate_workflow(n, seed=n)
    assert len(wf.nodes) == n
    assert validate(wf) == []


def test_edge_count_follows_edges_per_node_and_roles_are_mixed() -> None:
    wf = generate_workflow(1000, edges_per_node=2)
    assert len(wf.edges) == 2000
    roles = Counter(n.role for n in wf.nodes.values())
    assert roles["input"] >= 1 and roles["output"] >= 1
    assert {"planner", "executor", "critic", "verifier", "map", "reduce", "router"} <= set(roles)
    assert roles["executor"] > roles["critic"] > 0


def test_same_seed_same_workflow_other_seed_other_workflow() -> None:
    assert dumps_workflow(generate_workflow(200, seed=9)) == dumps_workflow(generate_workflow(200, seed=9))
    assert dumps_workflow(generate_workflow(200, seed=9)) != dumps_workflow(generate_workflow(200, seed=10))


def test_nodes_sit_on_a_grid_by_layer() -> None:
    wf = generate_workflow(100)
    xs = {n.ui.x for n in wf.nodes.values()}
    assert min(xs) == 0.0 and len(xs) > 5
    for edge in wf.edges.values():
        source, target = wf.nodes[edge.source], wf.nodes[edge.target]
        assert source.ui.x < target.ui.x or edge.target_port == "feedback"


def test_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        generate_workflow(1)


def test_generated_nodes_share_no_mutable_params() -> None:
    wf = generate_workflow(400, seed=2)
    subgraphs = [n for n in wf.nodes.values() if n.role == "subgraph"]
    assert len(subgraphs) >= 2
    subgraphs[0].params["graph"]["nodes"].clear()
    assert subgraphs[1].params["graph"]["nodes"]
