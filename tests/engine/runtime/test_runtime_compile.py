from __future__ import annotations

import pytest

from engine.graph.families import model_family
from engine.graph.format import load_workflow, workflow_to_dict
from engine.runtime import CompileError, compile_workflow
from tests.engine.runtime.fakes import build, triad


def test_compile_freezes_params_and_classifies_loop_edges() -> None:
    wf = triad()
    plan = compile_workflow(wf)
    wf.set_param("executor", "prompt", "changed after compile")
    assert plan.nodes["executor"].param("prompt") == "{task}"
    assert plan.nodes["executor"].param("max_tool_turns") == 4  # role default filled in
    kinds = {e.id: e.kind for n in plan.nodes.values() for e in n.outputs}
    assert kinds["e4"] == "back" and all(k == "forward" for i, k in kinds.items() if i != "e4")
    assert plan.order.index("planner") < plan.order.index("executor") < plan.order.index("critic")
    with pytest.raises(TypeError):
        plan.nodes["critic"].params["max_rounds"] = 9  # type: ignore[index]


def test_invalid_workflow_raises_compile_error_with_problems() -> None:
    wf = build([("c", "critic", {}), ("o", "output", {})], [])
    with pytest.raises(CompileError) as info:
        compile_workflow(wf)
    assert any("nothing to review" in p.message for p in info.value.problems)
    assert "Cannot run the workflow" in str(info.value)


def test_require_other_family_refuses_same_provider_family() -> None:
    wf = triad(require_other_family=True, model="sim/gpt-4o")
    wf.set_param("executor", "model", "openai/gpt-4o-mini")
    with pytest.raises(CompileError) as info:
        compile_workflow(wf)
    assert info.value.problems[0].code == "same_model_family"
    wf.set_param("critic", "model", "anthropic/claude-3-5-haiku")
    assert compile_workflow(wf).nodes["critic"].param("require_other_family") is True


@pytest.mark.parametrize(("model", "family"), [
    ("sim/default", "sim"), ("gpt-4o-mini", "openai"), ("sim/gpt-4o-mini", "openai"),
    ("anthropic/claude-3-haiku", "anthropic"), ("ollama/llama3.1", "meta"), ("local/smollm2", "huggingface"),
    ("bedrock/anthropic.claude-v2", "anthropic"), ("myhost/whatever", "myhost")])
def test_model_family(model: str, family: str) -> None:
    assert model_family(model) == family


def test_embedded_subgraph_is_compiled_and_self_inclusion_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    inner = build([("i", "input", {"name": "x"}), ("e", "executor", {}), ("o", "output", {"name": "y"})],
                  ["i.value->e.task", "e.result->o.value"])
    outer = build([("i", "input", {}), ("s", "subgraph", {"graph": workflow_to_dict(inner)}), ("o", "output", {})],
                  ["i.value->s.input", "s.output->o.value"])
    plan = compile_workflow(outer)
    assert set(plan.subplans["s"].nodes) == {"i", "e", "o"}
    loop = build([("i", "input", {}), ("s", "subgraph", {"path": "self.triadic.json"}), ("o", "output", {})],
                 ["i.value->s.input", "s.output->o.value"])
    from engine.graph.format import save_workflow

    save_workflow(loop, tmp_path / "self.triadic.json")
    with pytest.raises(CompileError) as info:
        compile_workflow(load_workflow(tmp_path / "self.triadic.json"), base_dir=tmp_path)
    assert "includes itself" in str(info.value)


def test_model_overrides_are_checked_against_require_other_family() -> None:
    from engine.runtime import Run
    from tests.engine.runtime.fakes import FakeGateway

    wf = triad(require_other_family=True, model="anthropic/claude-3-haiku")
    wf.set_param("executor", "model", "openai/gpt-4o-mini")
    plan = compile_workflow(wf)
    Run(plan, gateway=FakeGateway(), model_overrides={"executor": "sim/default"})
    with pytest.raises(CompileError, match="another provider family"):
        Run(plan, gateway=FakeGateway(), model_overrides={"critic": "gpt-4o"})
