"""Cross-model review is checked by validation (Problems panel, `triadic validate`), not only by a run,
and it finds the critic's author through routers, human gates and memory nodes."""

from __future__ import annotations

from engine.graph.family_checks import family_problems
from engine.graph.validate import validate
from tests.engine.runtime.fakes import build, triad


def _codes(problems: list) -> list[str]:  # type: ignore[type-arg]
    return [p.code for p in problems]


def test_validation_reports_a_critic_of_the_same_family_as_its_author() -> None:
    wf = triad(require_other_family=True, model="sim/gpt-4o")
    wf.set_param("executor", "model", "openai/gpt-4o-mini")
    [problem] = [p for p in validate(wf) if p.code == "same_model_family"]
    assert problem.severity == "error" and problem.node_id == "critic" and problem.field == "params.model"
    assert "'Executor' (executor)" in problem.message and "'openai'" in problem.message
    wf.set_param("critic", "model", "anthropic/claude-3-5-haiku")
    assert "same_model_family" not in _codes(validate(wf))


def test_the_author_is_found_through_a_router_and_a_human_gate() -> None:
    wf = build([("in", "input", {}), ("x", "executor", {"model": "openai/gpt-4o-mini"}),
                ("r", "router", {"mode": "condition", "routes": ["long", "short"]}),
                ("h", "human_gate", {}),
                ("c", "critic", {"require_other_family": True, "model": "openai/gpt-4o"}), ("o", "output", {})],
               ["in.value->x.task", "x.result->r.value", "r.long->h.subject", "h.approved->c.subject",
                "c.approved->o.value"])
    [problem] = [p for p in validate(wf) if p.code == "same_model_family"]
    assert "(through Router 'R' (r), Human gate 'H' (h))" in problem.message
    wf.set_param("c", "model", "anthropic/claude-3-5-haiku")
    assert not family_problems(wf)
    # a run's model overrides are judged the same way
    assert _codes(family_problems(wf, {"critic": "gpt-4o"})) == ["same_model_family"]


def test_nodes_without_a_model_are_not_authors() -> None:
    wf = build([("in", "input", {}), ("c", "critic", {"require_other_family": True, "model": "sim/default"}),
                ("o", "output", {})], ["in.value->c.subject", "c.approved->o.value"])
    assert not family_problems(wf)
