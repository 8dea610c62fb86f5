"""MCP servers in runs, end to end over a real stdio server: tool nodes and executors get their tools
from servers the run starts (once per command), the events record arguments and results, and the
server stops with the run — also when it is cancelled or fails."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from pathlib import Path

import pytest

from engine.events import ToolCallFinished, ToolCallStarted
from engine.llm.sim import SimGateway
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import build


async def assert_gone(pid: int) -> None:
    """The server stops as the run ends (its owner task closes it while the loop runs on)."""
    for _ in range(400):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"MCP server process {pid} is still alive after the run")

COMMAND = shlex.join([sys.executable, str(Path(__file__).with_name("mcp_demo_server.py"))])
ASK = {"call_tools": True, "tool": "demo.add", "tool_arguments": {"a": 20, "b": 22}}


@pytest.mark.asyncio
async def test_tool_nodes_and_executors_share_one_server_per_command() -> None:
    wf = build([("nums", "input", {"name": "nums"}),
                ("add", "tool", {"server": COMMAND, "tool": "add"}),
                ("pid1", "tool", {"server": COMMAND, "tool": "pid"}),
                ("pid2", "tool", {"server": f" {COMMAND} ", "tool": "demo.pid", "allow": ["pid"]}),
                ("task", "input", {"name": "task", "default": "add twenty and twenty-two"}),
                ("calc", "executor", {"model": "sim/default", "tools": ["demo.add"], "sim": ASK}),
                ("via", "executor", {"model": "sim/default", "tools": [f"mcp:{COMMAND}"], "max_tool_turns": 2,
                                     "sim": {**ASK, "tool": "demo__pid", "tool_arguments": {}}}),
                ("sum", "output", {"name": "sum"}), ("p1", "output", {"name": "p1"}),
                ("p2", "output", {"name": "p2"}), ("answer", "output", {"name": "answer"}),
                ("via_answer", "output", {"name": "via"})],
               ["nums.value->add.args", "add.result->sum.value", "pid1.result->p1.value", "pid2.result->p2.value",
                "task.value->calc.task", "calc.result->answer.value", "task.value->via.task",
                "via.result->via_answer.value"])
    run = Run(compile_workflow(wf), gateway=SimGateway(), inputs={"nums": {"a": 2, "b": 40}})
    result = await asyncio.wait_for(run.wait(), 60)
    assert result.status == "succeeded", result.reason
    assert result.outputs["sum"] == {"result": 42}
    pid = result.outputs["p1"]["result"]
    assert result.outputs["p2"] == {"result": pid}  # the same command ran one server process
    assert 'Tool demo__add returned: {"result": 42}' in result.outputs["answer"]
    assert f'Tool demo__pid returned: {{"result": {pid}}}' in result.outputs["via"]
    started = [e for e in run.hub.history if isinstance(e, ToolCallStarted)]
    finished = {e.span_id: e for e in run.hub.history if isinstance(e, ToolCallFinished)}
    calc = next(e for e in started if e.node_id == "calc")
    assert (calc.tool, calc.arguments) == ("demo__add", {"a": 20, "b": 22})
    assert finished[calc.span_id].result == {"result": 42} and finished[calc.span_id].error is None
    assert {e.node_id for e in started} == {"add", "pid1", "pid2", "calc", "via"}
    await assert_gone(pid)


@pytest.mark.asyncio
async def test_cancelling_a_run_stops_its_server_mid_call() -> None:
    wf = build([("pid", "tool", {"server": COMMAND, "tool": "pid"}),
                ("wait", "input", {"name": "wait"}),
                ("slow", "tool", {"server": COMMAND, "tool": "slow", "read_only": False}),
                ("out", "output", {}), ("out2", "output", {"name": "late"})],
               ["pid.result->out.value", "wait.value->slow.args", "slow.result->out2.value"])
    run = Run(compile_workflow(wf), gateway=SimGateway(), inputs={"wait": {"seconds": 30}})
    run.start()
    pid = None
    async for event in run.events():
        if isinstance(event, ToolCallFinished) and event.node_id == "pid":
            pid = event.result["result"]
        if pid is not None and any(isinstance(e, ToolCallStarted) and e.node_id == "slow" for e in run.hub.history):
            break
    run.cancel()
    result = await asyncio.wait_for(run.wait(), 10)
    assert result.status == "cancelled" and run.state("slow") == "cancelled"
    cut = [e for e in run.hub.history if isinstance(e, ToolCallFinished) and e.node_id == "slow"]
    assert [e.error for e in cut] == ["cancelled"]  # the cut call's span is closed, not left running
    assert pid is not None
    await assert_gone(pid)


@pytest.mark.asyncio
async def test_denied_and_failing_servers_fail_the_node_clearly_and_servers_stop() -> None:
    wf = build([("write", "tool", {"server": COMMAND, "tool": "append_line"}),
                ("bad", "tool", {"server": f"{sys.executable} -c 'import sys; sys.exit(3)'", "tool": "x",
                                 "timeout_s": 10}),
                ("pid", "tool", {"server": COMMAND, "tool": "pid"}),
                ("pid_again", "tool", {"server": f"{COMMAND} --second", "tool": "pid"}),
                ("out", "output", {}), ("out2", "output", {"name": "b"}), ("p1", "output", {"name": "p1"}),
                ("p2", "output", {"name": "p2"})],
               ["write.result->out.value", "bad.result->out2.value", "pid.result->p1.value",
                "pid_again.result->p2.value"])
    run = Run(compile_workflow(wf), gateway=SimGateway())
    result = await asyncio.wait_for(run.wait(), 60)
    assert result.status == "failed"
    assert "Write (write): tool 'demo.append_line' failed: tool 'demo.append_line' may write" in result.reason
    assert "Bad (bad): " in result.reason and "failed to start" in result.reason
    pids = result.outputs["p1"]["result"], result.outputs["p2"]["result"]
    assert pids[0] != pids[1]  # a second command is a second server, its tools prefixed "demo_2"
    assert {e.tool for e in run.hub.history if isinstance(e, ToolCallStarted)} >= {"demo.pid", "demo_2.pid"}
    for pid in pids:
        await assert_gone(pid)
