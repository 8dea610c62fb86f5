"""Compiling stays linear in nodes + edges on every shape, looping critics included.

The judge wiring counts its steps (`JudgeWiring.work`): doubling a graph may at most ~double them.
The whole compile (validation included) is checked by CPU time with a ratio no load can reach by
accident: four times the graph may cost at most eight times the time (quadratic would be sixteen).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.shapes import chain, critic_pairs, fan, lattice, shape_workflow, tree
from engine.runtime import compile_workflow
from engine.runtime.plan import PlanEdge, _back_edges
from engine.runtime.plan_judges import JudgeWiring


def critic_pairs_reported(n: int) -> Workflow:
    """Executor → critic pairs whose executors also all feed one report (their critics re-source it)."""
    wf = shape_workflow(critic_pairs(n))
    wf.add_node(Node("report", "executor", params={}, ui=NodeUi()))
    wf.add_edge(Edge("report-task", "in", "value", "report", "task"))
    for i in range(n):
        wf.add_edge(Edge(f"r{i}", f"x{i}", "result", "report", "context"))
    return wf


SHAPES: dict[str, Callable[[int], Workflow]] = {
    "chain": lambda n: shape_workflow(chain(n)),
    "fan": lambda n: shape_workflow(fan(n)),
    "lattice": lambda n: shape_workflow(lattice(n // 20, 20)),
    "tree": lambda n: shape_workflow(tree(n.bit_length())),
    "critic_pairs": lambda n: shape_workflow(critic_pairs(n)),
    "critic_pairs_reported": critic_pairs_reported,
    "generated": lambda n: generate_workflow(n, seed=7),
}


def wiring_work(wf: Workflow) -> int:
    back = _back_edges(wf)
    edges = [PlanEdge(e.id, e.source, e.source_port, e.target, e.target_port, "back" if e.id in back else "forward")
             for e in wf.edges.values()]
    wiring = JudgeWiring({nid: n.role for nid, n in wf.nodes.items()}, edges)
    wiring.rewire()
    return wiring.work


@pytest.mark.parametrize("shape", SHAPES)
def test_judge_wiring_work_doubles_at_most_with_the_graph(shape: str) -> None:
    small, large = SHAPES[shape](200), SHAPES[shape](400)
    size = len(large.nodes) + len(large.edges), len(small.nodes) + len(small.edges)
    ratio = wiring_work(large) / wiring_work(small)
    assert ratio <= 2.2 * size[0] / size[1] / 2, (shape, ratio, size)


def test_the_critic_pairs_reported_are_wired_to_the_approved_outputs() -> None:
    plan = compile_workflow(critic_pairs_reported(5))
    sources = sorted((e.source, e.source_port) for e in plan.nodes["report"].inputs if e.target_port == "context")
    assert sources == [(f"c{i}", "approved") for i in range(5)]


@pytest.mark.parametrize("shape", ["critic_pairs", "critic_pairs_reported", "lattice", "generated"])
def test_compiling_four_times_the_graph_costs_far_less_than_sixteen_times(shape: str) -> None:
    def cpu(n: int) -> float:
        wf = SHAPES[shape](n)
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            compile_workflow(wf)
            best = min(best, time.process_time() - started)
        return best

    small, large = cpu(100), cpu(400)
    assert large <= 8 * max(small, 0.002), (shape, small, large)


def _feeds(plan: object, start: str, judge: str) -> bool:
    nodes = plan.nodes  # type: ignore[attr-defined]
    seen, stack = {start}, [start]
    while stack:
        for e in nodes[stack.pop()].outputs:
            if e.kind == "forward" and e.target not in seen:
                if e.target == judge:
                    return True
                seen.add(e.target)
                stack.append(e.target)
    return False


@pytest.mark.parametrize("seed", range(25))
def test_every_looping_judge_owns_its_authors_other_consumers_and_the_plan_stays_acyclic(seed: int) -> None:
    plan = compile_workflow(generate_workflow(40 + 8 * seed, seed=seed))
    assert sorted(plan.order) == sorted(plan.nodes)  # the forward edges still order every node
    for judge in plan.nodes.values():
        loops = any(e.kind == "back" and e.target_port == "feedback" for e in judge.outputs)
        subject = next((e for e in judge.inputs if e.target_port == "subject"), None)
        if judge.role not in ("critic", "verifier") or not loops or subject is None:
            continue
        for e in plan.nodes[subject.source].outputs:
            if e.kind == "forward" and e.source_port == subject.source_port and e.target != judge.id:
                assert _feeds(plan, e.target, judge.id), (seed, judge.id, e)  # left alone only to avoid a cycle
