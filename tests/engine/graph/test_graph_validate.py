"""Validation: each kind of problem is reported, with a sentence naming the node or edge."""

from __future__ import annotations

from engine.graph.generate import generate_workflow
from engine.graph.model import Budget, Edge, Node, RunSettings, Workflow
from engine.graph.problems import Problem
from engine.graph.validate import validate


def triad() -> Workflow:
    wf = Workflow("Triad")
    for node in (Node("in", "input", "Goal"), Node("plan", "planner", "Plan"), Node("do", "executor", "Do"),
                 Node("rev", "critic", "Review"), Node("out", "output", "Result")):
        wf.add_node(node)
    for i, (s, sp, t, tp) in enumerate([("in", "value", "plan", "goal"), ("plan", "plan", "do", "task"),
                                        ("do", "result", "rev", "subject"), ("rev", "verdict", "do", "feedback"),
                                        ("rev", "approved", "out", "value")], start=1):
        wf.add_edge(Edge(f"e{i}", s, sp, t, tp))
    return wf


def only(problems: list[Problem], code: str) -> list[Problem]:
    return [p for p in problems if p.code == code]


def test_a_sound_workflow_has_no_problem() -> None:
    assert validate(triad()) == []
    assert validate(generate_workflow(400, seed=5)) == []


def test_unknown_role() -> None:
    wf = triad()
    wf.add_node(Node("x", "wizard", "Magic"))
    wf.add_edge(Edge("e9", "x", "out", "do", "context"))
    problems = validate(wf)
    [p] = only(problems, "unknown_role")
    assert p.message == "Node 'Magic' (x) has an unknown role 'wizard'." and p.node_id == "x"
    assert not only(problems, "dangling_edge")  # reported once, on the node


def test_critic_without_subject_gets_its_own_message() -> None:
    wf = triad()
    wf.remove_edge("e3")
    [p] = only(validate(wf), "missing_input")
    assert p.message == "Critic 'Review' (rev) has nothing to review: connect its subject input."
    assert p.severity == "error" and p.field == "inputs.subject"


def test_missing_required_input() -> None:
    wf = triad()
    wf.remove_edge("e2")
    [p] = only(validate(wf), "missing_input")
    assert p.message == "Executor 'Do' (do) needs its 'task' input connected."


def test_dangling_edges() -> None:
    wf = triad()
    wf.add_edge(Edge("e6", "ghost", "value", "do", "context"))
    wf.add_edge(Edge("e7", "plan", "nope", "do", "context"))
    wf.add_edge(Edge("e8", "in", "value", "do", "nope"))
    messages = [p.message for p in only(validate(wf), "dangling_edge")]
    assert messages == ["Edge e6 (ghost.value → do.context) comes from an unknown node 'ghost'.",
                        "Edge e7: Planner 'Plan' (plan) has no output 'nope'.",
                        "Edge e8: Executor 'Do' (do) has no input 'nope'."]


def test_port_type_mismatch() -> None:
    wf = triad()
    wf.add_node(Node("p2", "planner", "Replan"))
    wf.add_edge(Edge("e6", "rev", "verdict", "p2", "goal"))
    [p] = only(validate(wf), "port_type_mismatch")
    assert p.message == ("Edge e6: Output 'verdict' (verdict) of Critic 'Review' (rev) cannot feed input 'goal' "
                         "(text) of Planner 'Replan' (p2).")
    assert p.edge_id == "e6"


def test_several_edges_into_a_single_input() -> None:
    wf = triad()
    wf.add_edge(Edge("e6", "in", "value", "do", "task"))
    [p] = only(validate(wf), "multiple_inputs")
    assert p.message == "The 'task' input of Executor 'Do' (do) takes one edge but has 2 (e2, e6)."


def test_duplicate_edges() -> None:
    wf = triad()
    wf.add_edge(Edge("e6", "plan", "plan", "do", "task"))
    problems = validate(wf)
    [p] = only(problems, "duplicate_edge")
    assert p.message == "Edge e6 repeats edge e2 (plan.plan → do.task)."
    assert not only(problems, "multiple_inputs")


def test_unbounded_loop_names_the_nodes_of_the_cycle() -> None:
    wf = triad()
    wf.set_param("rev", "max_rounds", 0)
    [p] = only(validate(wf), "unbounded_loop")
    assert "Executor 'Do' (do) → Critic 'Review' (rev) → back" in p.message
    assert "set max_rounds of Critic 'Review' (rev) above 0" in p.message


def test_loop_of_unbounded_roles_and_bounded_loops() -> None:
    wf = Workflow()
    for node in (Node("a", "executor", "A"), Node("m", "memory", "M"), Node("t", "tool", "T")):
        wf.add_node(node)
    wf.add_edge(Edge("e1", "a", "result", "m", "value"))
    wf.add_edge(Edge("e2", "m", "value", "t", "args"))
    wf.add_edge(Edge("e3", "t", "result", "a", "task"))
    [p] = only(validate(wf), "unbounded_loop")
    assert "Executor 'A' (a) → Memory 'M' (m) → Tool 'T' (t) → back" in p.message
    assert validate(triad()) == []  # executor ⇄ critic is bounded by max_rounds


def test_a_cycle_avoiding_the_bounded_node_is_still_unbounded() -> None:
    wf = triad()
    wf.add_node(Node("m", "memory", "M"))
    wf.add_edge(Edge("e6", "do", "result", "m", "value"))
    wf.add_edge(Edge("e7", "m", "value", "do", "context"))
    [p] = only(validate(wf), "unbounded_loop")
    assert "Executor 'Do' (do) → Memory 'M' (m) → back" in p.message


def test_param_type_range_and_choice_errors_and_unknown_params() -> None:
    wf = triad()
    wf.nodes["do"].params.update({"temperature": 3.5, "max_tool_turns": "four", "retries": True, "colour": "red"})
    wf.add_node(Node("v", "verifier", "Check", {"check": "magic"}))
    wf.add_edge(Edge("e6", "do", "result", "v", "subject"))
    problems = validate(wf)
    bad = {p.field: p.message for p in only(problems, "bad_param")}
    assert bad["params.temperature"] == "Parameter 'temperature' of Executor 'Do' (do) must be between 0 and 2, not 3.5."
    assert bad["params.max_tool_turns"] == "Parameter 'max_tool_turns' of Executor 'Do' (do) must be a whole number."
    assert bad["params.retries"].endswith("must be a whole number.")
    assert "must be one of 'python', 'json_schema', 'regex', 'command', 'sql', not 'magic'" in bad["params.check"]
    [unknown] = only(problems, "unknown_param")
    assert unknown.severity == "warning" and "'colour'" in unknown.message


def test_empty_model_on_an_llm_role() -> None:
    wf = triad()
    wf.set_param("plan", "model", "  ")
    [p] = only(validate(wf), "empty_model")
    assert p.message.startswith("Planner 'Plan' (plan) has no model")


def test_a_server_address_must_be_http() -> None:
    wf = triad()
    wf.set_param("plan", "api_base", "localhost:8000/v1")
    [p] = only(validate(wf), "bad_api_base")
    assert p.message == ("The server address of Planner 'Plan' (plan) must start with http:// or https:// "
                         "(for example http://localhost:8000/v1).") and p.field == "params.api_base"
    wf.set_param("plan", "api_base", "http://localhost:8000/v1")
    assert not only(validate(wf), "bad_api_base")


def test_router_with_no_routes_and_condition_router_needs_no_model() -> None:
    wf = triad()
    wf.add_node(Node("r", "router", "Route", {"routes": [], "model": ""}))
    wf.add_edge(Edge("e6", "do", "result", "r", "value"))
    problems = validate(wf)
    [p] = only(problems, "no_routes")
    assert p.message == "Router 'Route' (r) has no routes: add at least one branch name."
    assert not only(problems, "empty_model")
    wf.set_param("r", "mode", "classifier")
    assert only(validate(wf), "empty_model")


def test_duplicate_input_and_output_names() -> None:
    wf = triad()
    wf.add_node(Node("in2", "input", "Other", {"name": "goal"}))
    wf.add_edge(Edge("e6", "in2", "value", "do", "context"))
    [p] = only(validate(wf), "duplicate_input_name")
    assert p.message == "2 Input nodes share the name 'goal': Input 'Goal' (in), Input 'Other' (in2)."
    wf.add_node(Node("out2", "output", "", {"name": "result"}))
    wf.add_edge(Edge("e7", "do", "result", "out2", "value"))
    assert only(validate(wf), "duplicate_output_name")


def test_no_output_and_isolated_nodes_are_warnings() -> None:
    wf = triad()
    wf.remove_edge("e5")
    wf.remove_node("out")
    wf.add_node(Node("lonely", "memory", "Notes"))
    problems = validate(wf)
    assert [(p.severity, p.code) for p in problems] == [("warning", "no_output"), ("warning", "isolated_node")]
    assert problems[1].message == "Memory 'Notes' (lonely) is not connected to anything."


def test_negative_budgets_and_bad_concurrency() -> None:
    wf = triad()
    wf.set_settings(RunSettings(Budget(-1, -0.5, 0.0, 0), concurrency=0))
    problems = validate(wf)
    assert [p.field for p in only(problems, "negative_budget")] == ["settings.budget.max_tokens",
                                                                     "settings.budget.max_cost_usd"]
    [c] = only(problems, "bad_concurrency")
    assert "at least 1" in c.message


def test_subgraph_with_neither_path_nor_graph() -> None:
    wf = triad()
    wf.add_node(Node("s", "subgraph", "Inner"))
    wf.add_edge(Edge("e6", "do", "result", "s", "input"))
    [p] = only(validate(wf), "empty_subgraph")
    assert p.message == "Sub-graph 'Inner' (s) has neither a workflow file (path) nor an embedded graph."
    wf.set_param("s", "path", "inner.triadic.json")
    assert not only(validate(wf), "empty_subgraph")


def test_secret_params_are_errors() -> None:
    wf = triad()
    wf.set_param("do", "api_key", "x")
    [p] = only(validate(wf), "secret_param")
    assert "keys never go in workflow files" in p.message and p.node_id == "do"


def test_every_problem_is_reported_at_once() -> None:
    wf = triad()
    wf.remove_edge("e3")
    wf.set_param("plan", "max_tasks", 0)
    wf.add_node(Node("x", "wizard"))
    codes = {p.code for p in validate(wf)}
    assert {"missing_input", "bad_param", "unknown_role", "isolated_node"} <= codes
