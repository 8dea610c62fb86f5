"""can_connect: which edges the editor may draw, and the reason when it may not."""

from __future__ import annotations

from engine.graph.model import Edge, Node, Workflow
from engine.graph.validate import can_connect


def small() -> Workflow:
    wf = Workflow()
    for node in (Node("in", "input", "Goal"), Node("plan", "planner", "Planner"), Node("do", "executor", "Do"),
                 Node("rev", "critic", "Review"), Node("m", "memory", "M"), Node("t", "tool", "T")):
        wf.add_node(node)
    wf.add_edge(Edge("e1", "in", "value", "plan", "goal"))
    wf.add_edge(Edge("e2", "plan", "plan", "do", "task"))
    return wf


def test_allowed_connections() -> None:
    wf = small()
    assert can_connect(wf, "do", "result", "rev", "subject") is None
    assert can_connect(wf, "in", "value", "do", "context") is None
    assert can_connect(wf, "rev", "verdict", "do", "feedback") is None


def test_type_mismatch_reason() -> None:
    assert can_connect(small(), "rev", "verdict", "plan", "goal") == (
        "Output 'verdict' (verdict) of Critic 'Review' (rev) cannot feed input 'goal' (text) of "
        "Planner 'Planner' (plan): the types do not match.")


def test_unknown_nodes_ports_and_self_loops() -> None:
    wf = small()
    assert can_connect(wf, "ghost", "value", "do", "task") == "There is no node 'ghost' in this workflow."
    assert can_connect(wf, "plan", "nope", "do", "context") == "Planner 'Planner' (plan) has no output 'nope'."
    assert can_connect(wf, "plan", "plan", "do", "nope") == "Executor 'Do' (do) has no input 'nope'."
    assert can_connect(wf, "m", "value", "m", "value") == "Memory 'M' (m) cannot feed itself."


def test_single_inputs_and_repeats() -> None:
    wf = small()
    assert can_connect(wf, "in", "value", "do", "task") == (
        "The 'task' input of Executor 'Do' (do) already has a connection and takes only one.")
    wf.add_edge(Edge("e3", "in", "value", "do", "context"))
    assert can_connect(wf, "in", "value", "do", "context") == (
        "Input 'Goal' (in) already feeds the 'context' input of Executor 'Do' (do).")
    assert can_connect(wf, "plan", "plan", "do", "context") is None  # context takes several


def test_an_unbounded_loop_is_refused_and_a_bounded_one_allowed() -> None:
    wf = small()
    wf.add_edge(Edge("e3", "do", "result", "m", "value"))
    wf.add_edge(Edge("e4", "m", "value", "t", "args"))
    reason = can_connect(wf, "t", "result", "do", "context")
    assert reason is not None and "close a loop" in reason and "Tool 'T' (t)" in reason
    wf.add_edge(Edge("e5", "do", "result", "rev", "subject"))
    assert can_connect(wf, "rev", "verdict", "do", "feedback") is None
