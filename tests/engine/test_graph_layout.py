"""layered_layout: every node placed, left to right, cycles and disconnected parts handled, no overlaps."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from engine.graph.generate import generate_workflow
from engine.graph.layout import NODE_WIDTH, layered_layout, node_box
from engine.graph.model import Edge, Node, NodeUi, Workflow


def chain_with_loop() -> Workflow:
    wf = Workflow("loop")
    for i, role in enumerate(["input", "planner", "executor", "critic", "output"]):
        wf.add_node(Node(role, role, ui=NodeUi(500 - i * 100, 40)))
    for i, (a, ap, b, bp) in enumerate([("input", "value", "planner", "goal"), ("planner", "plan", "executor", "task"),
                                        ("executor", "result", "critic", "subject"),
                                        ("critic", "verdict", "executor", "feedback"),
                                        ("critic", "approved", "output", "value")]):
        wf.add_edge(Edge(f"e{i}", a, ap, b, bp))
    wf.add_node(Node("lonely", "memory", ui=NodeUi(0, 0)))
    return wf


def overlaps(wf: Workflow, positions: dict[str, tuple[float, float]]) -> list[tuple[str, str]]:
    boxes = {i: (x, y, x + node_box(wf.nodes[i])[0], y + node_box(wf.nodes[i])[1]) for i, (x, y) in positions.items()}
    ids = sorted(boxes, key=lambda i: boxes[i][0])
    found = []
    for k, a in enumerate(ids):
        for b in ids[k + 1:]:
            if boxes[b][0] >= boxes[a][2]:
                break
            if boxes[a][1] < boxes[b][3] and boxes[b][1] < boxes[a][3]:
                found.append((a, b))
    return found


def test_every_node_gets_a_position_left_to_right_with_a_loop():
    wf = chain_with_loop()
    positions = layered_layout(wf)
    assert set(positions) == set(wf.nodes)
    x = {i: p[0] for i, p in positions.items()}
    assert x["input"] < x["planner"] < x["executor"] < x["critic"] < x["output"]
    assert not overlaps(wf, positions)


def test_layout_is_anchored_at_the_current_top_left_and_leaves_the_model_alone():
    wf = chain_with_loop()
    positions = layered_layout(wf)
    assert min(p[0] for p in positions.values()) == 0
    assert min(p[1] for p in positions.values()) == 0
    assert wf.nodes["input"].ui.x == 500


def test_subset_layout_only_moves_the_subset():
    wf = chain_with_loop()
    positions = layered_layout(wf, ["planner", "executor", "nope"])
    assert set(positions) == {"planner", "executor"}
    assert positions["planner"][0] + NODE_WIDTH <= positions["executor"][0]


def test_a_pure_cycle_and_empty_input():
    wf = Workflow("cycle")
    wf.add_node(Node("a", "critic"))
    wf.add_node(Node("b", "executor"))
    wf.add_edge(Edge("e1", "a", "verdict", "b", "feedback"))
    wf.add_edge(Edge("e2", "b", "result", "a", "subject"))
    assert set(layered_layout(wf)) == {"a", "b"}
    assert layered_layout(Workflow()) == {}


def test_generated_graph_has_no_overlaps_in_a_layer_and_is_fast():
    wf = generate_workflow(1000, edges_per_node=2, seed=1)
    started = time.perf_counter()
    positions = layered_layout(wf)
    elapsed = time.perf_counter() - started
    assert set(positions) == set(wf.nodes)
    assert not overlaps(wf, positions)
    assert elapsed < 10  # ~0.4 s on the CI machine; generous for a shared box


def test_grandalf_is_imported_only_when_a_layout_runs():
    code = ("import sys, engine.graph.layout as layout; from engine.graph.generate import generate_workflow; "
            "before = 'grandalf' in sys.modules; layout.layered_layout(generate_workflow(5)); "
            "print(before, 'grandalf' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.split() == ["False", "True"]
