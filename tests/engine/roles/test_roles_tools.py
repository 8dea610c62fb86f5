"""The executor's tool loop (turn bound, last-turn reminder, errors back to the model, allow-list)
and tool nodes over the built-in Python tools when the run was given no registry."""

from __future__ import annotations

import json

import pytest

from engine.events import ToolCallFinished, ToolCallStarted
from engine.llm.sim import SimGateway
from engine.llm.types import LLMRequest, LLMResponse
from engine.roles.tooluse import LAST_TURN_REMINDER
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, Reply, build


def calls(*script: tuple[str, dict[str, object]] | str):  # type: ignore[no-untyped-def]
    """A reply function answering executor turns in order: a (tool, arguments) call or a final text."""
    queue = list(script)

    def reply(request: LLMRequest) -> Reply:
        step = queue.pop(0) if queue else "done"
        if isinstance(step, str):
            return step
        name, arguments = step
        call = {"id": f"c{len(queue)}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)}}
        return LLMResponse(content="", model=request.model, provider="fake", tool_calls=[call])

    return reply


def one_executor(tools: list[str], max_tool_turns: int = 4):  # type: ignore[no-untyped-def]
    return build([("in", "input", {"default": "use the tools"}),
                  ("x", "executor", {"tools": tools, "max_tool_turns": max_tool_turns, "system_prompt": "Be exact."}),
                  ("out", "output", {})], ["in.value->x.task", "x.result->out.value"])


@pytest.mark.asyncio
async def test_tool_results_and_errors_go_back_to_the_model() -> None:
    gateway = FakeGateway(calls(("calculator", {"expression": "6 * 7"}), ("calculator", {"expression": "1/0"}),
                                ("word_count", {"text": "a b"}), ("nope", {}), "the answer is 42"))
    run = Run(compile_workflow(one_executor(["calculator"], max_tool_turns=5)), gateway=gateway)
    result = await run.wait()
    assert result.status == "succeeded" and result.outputs["result"] == "the answer is 42"
    last = gateway.requests[-1]
    assert last.messages[0] == {"role": "system", "content": "Be exact."}
    assert [t["function"]["name"] for t in last.tools or []] == ["calculator"]
    tool_messages = [m["content"] for m in last.messages if m["role"] == "tool"]
    assert tool_messages[0] == "42" and "ZeroDivisionError" in tool_messages[1]
    assert "not on this node's allow-list" in tool_messages[2] and "unknown tool 'nope'" in tool_messages[3]
    assert last.messages[-1]["content"] == LAST_TURN_REMINDER  # reminded before the last turn (turn 5)
    assert len(gateway.requests[0].messages) == 2  # each turn records the conversation as it was sent
    assert sum(m["content"] == LAST_TURN_REMINDER for m in last.messages) == 1
    finished = [e for e in run.hub.history if isinstance(e, ToolCallFinished)]
    assert [e.result for e in finished][:1] == [42] and all(e.error for e in finished[1:])


@pytest.mark.asyncio
async def test_a_model_that_only_calls_tools_fails_after_max_tool_turns() -> None:
    gateway = FakeGateway(calls(*[("calculator", {"expression": "1+1"})] * 10))
    run = Run(compile_workflow(one_executor(["calculator"], max_tool_turns=3)), gateway=gateway)
    result = await run.wait()
    assert result.status == "failed" and "still called tools after max_tool_turns=3" in result.reason
    assert len(gateway.requests) == 3
    # the calls of the last turn are not run: no turn is left to read their results (no side effects)
    assert sum(isinstance(e, ToolCallStarted) for e in run.hub.history) == 2


@pytest.mark.asyncio
async def test_unknown_allow_list_and_builtin_tool_nodes() -> None:
    result = await Run(compile_workflow(one_executor(["no_such_tool"])), gateway=FakeGateway()).wait()
    assert result.status == "failed" and "none of the tools on the allow-list" in result.reason
    wf = build([("in", "input", {}), ("t", "tool", {"tool": "calculator"}), ("o", "output", {})],
               ["in.value->t.args", "t.result->o.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": {"expression": "2 ** 10"}})
    assert (await run.wait()).outputs == {"result": 1024}
    started = next(e for e in run.hub.history if isinstance(e, ToolCallStarted))
    assert (started.tool, started.arguments) == ("calculator", {"expression": "2 ** 10"})


@pytest.mark.asyncio
async def test_simulated_executor_calls_a_builtin_tool_then_answers() -> None:
    wf = build([("in", "input", {"default": "how many words"}),
                ("x", "executor", {"model": "sim/default", "tools": ["word_count"],
                                   "sim": {"call_tools": True, "tool_arguments": {"text": "one two three"}}}),
                ("out", "output", {})], ["in.value->x.task", "x.result->out.value"])
    result = await Run(compile_workflow(wf), gateway=SimGateway()).wait()
    assert result.status == "succeeded"
    assert result.outputs["result"].endswith('Tool word_count returned: {"words": 3, "characters": 13, "lines": 1}')


@pytest.mark.asyncio
async def test_tools_example_runs_offline() -> None:
    from pathlib import Path

    from engine.graph.format import load_workflow

    path = Path(__file__).resolve().parents[3] / "resources" / "examples" / "tools.triadic.json"
    run = Run(compile_workflow(load_workflow(path)), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert result.outputs["answer"].endswith("Tool calculator returned: 604800")
    assert result.outputs["words"]["words"] == len(result.outputs["answer"].split())
    tools = [(e.node_id, e.tool) for e in run.hub.history if isinstance(e, ToolCallStarted)]
    assert tools == [("solver", "calculator"), ("count", "word_count")]


@pytest.mark.asyncio
async def test_an_executor_with_read_only_tools_is_offered_and_allowed_only_those() -> None:
    from engine.tools import ToolRegistry

    registry = ToolRegistry()
    written: list[str] = []

    @registry.tool("look", read_only=True)
    def look(path: str) -> str:
        return f"contents of {path}"

    @registry.tool("write", read_only=False)
    def write(path: str) -> str:
        written.append(path)
        return "written"

    wf = one_executor(["look", "write"], max_tool_turns=4)
    wf.set_param("x", "read_only_tools", True)  # type: ignore[attr-defined]
    gateway = FakeGateway(calls(("look", {"path": "a.txt"}), ("write", {"path": "a.txt"}), "looked only"))
    result = await Run(compile_workflow(wf), gateway=gateway, tools=registry).wait()
    assert result.status == "succeeded" and result.outputs["result"] == "looked only"
    assert [t["function"]["name"] for t in gateway.requests[0].tools or []] == ["look"]
    tool_messages = [m["content"] for m in gateway.requests[-1].messages if m["role"] == "tool"]
    assert tool_messages[0] == "contents of a.txt" and "write" in tool_messages[1] and written == []
    wf.set_param("x", "read_only_tools", False)  # type: ignore[attr-defined]
    gateway = FakeGateway(calls(("write", {"path": "b.txt"}), "wrote"))
    assert (await Run(compile_workflow(wf), gateway=gateway, tools=registry).wait()).status == "succeeded"
    assert written == ["b.txt"]
