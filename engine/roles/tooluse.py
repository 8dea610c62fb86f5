"""Tool use by executors and tool nodes: which tools a node may call, and the executor's tool loop.

- A tool node's `server` is "python" (the run's registry: functions given to the run, else the
  built-ins) or an MCP stdio command line; its `tool` and `allow` names without a server prefix are
  qualified with the server's name ("add" → "demo.add"). An empty `allow` allows just its tool.
  Its `args` input is the arguments object, or a value for a tool's only parameter.
- An executor's `tools` allow-list holds tool names / fnmatch patterns and `mcp:<command line>`
  entries (start that server, allow all its tools). When an entry names no tool the run has yet,
  the MCP servers declared by the graph's tool nodes are started first (lazily, once per run).
- With `read_only_tools`, only the allowed tools that do not write are offered, and a call of a
  writing tool is refused (the refusal goes back to the model like any tool error).
- The tool loop: at most `max_tool_turns` model turns with the allowed tools offered (OpenAI format);
  each tool call goes through the run's tools (allow-list, timeout) and its result — or its error,
  for the model to react to — is sent back as a `tool` message. Before the last turn the model is
  reminded to answer without tools; tool calls made on the last turn are not run (no turn is left
  to read their results): its text, if any, is the answer, else the node fails.
"""

from __future__ import annotations

import json
from typing import Any

from engine.roles.text import as_text
from engine.runtime.context import NodeContext
from engine.runtime.plan import RunPlan
from engine.runtime.run_services import NodeFailed

MCP_PREFIX = "mcp:"
LAST_TURN_REMINDER = ("This is your last turn: do not call any more tools. Give your final answer now, "
                      "using the tool results above.")


def _qualified(name: str, server: str) -> str:
    return name if "." in name else f"{server}.{name}"


async def tool_node_policy(ctx: NodeContext, tool: str) -> tuple[str, list[str]]:
    """(the tool's full name, the allow-list) of a tool node, its MCP server started if it has one."""
    allow = [str(a) for a in ctx.param("allow") or []]
    command = str(ctx.param("server") or "python").strip()
    if command and command != "python":
        server = await ctx.tool_server(command)
        tool, allow = _qualified(tool, server), [_qualified(a, server) for a in allow]
    else:
        ctx.toolbox()
    return tool, allow or [tool]


def tool_node_arguments(ctx: NodeContext, tool: str, args: Any) -> dict[str, Any]:
    """A tool node's `args` input as the call's arguments: an object as is; any other value goes to
    the tool's only parameter when it has exactly one (else to a parameter named "input")."""
    if isinstance(args, dict):
        return dict(args)
    if args is None:
        return {}
    spec = ctx.toolbox().get(tool)
    properties = list((spec.parameters.get("properties") or {}) if spec is not None else {})
    return {properties[0] if len(properties) == 1 else "input": args}


def declared_servers(plan: RunPlan) -> list[str]:
    """The MCP server command lines of the plan's tool nodes (and of its sub-graphs)."""
    found = [str(n.param("server")).strip() for n in plan.nodes.values()
             if n.role == "tool" and str(n.param("server") or "python").strip() not in ("", "python")]
    for sub in plan.subplans.values():
        found += declared_servers(sub)
    return list(dict.fromkeys(found))


async def executor_allow_list(ctx: NodeContext, entries: list[str]) -> list[str]:
    allow: list[str] = []
    for entry in entries:
        if entry.startswith(MCP_PREFIX):
            allow.append(f"{await ctx.tool_server(entry[len(MCP_PREFIX):])}.*")
        else:
            allow.append(entry)
    box = ctx.toolbox()
    if not all(box.matches(pattern) for pattern in allow):
        for command in declared_servers(ctx.graph.plan):
            await ctx.tool_server(command)
    return allow


async def tool_loop(ctx: NodeContext, prompt: str, allow: list[str], **metadata: Any) -> str:
    read_only = bool(ctx.param("read_only_tools"))
    tools = ctx.toolbox().openai_tools(allow, read_only=read_only)
    if not tools:
        which = "read-only tools" if read_only else "tools"
        raise NodeFailed(f"none of the {which} on the allow-list exists in this run: {', '.join(allow)}")
    messages: list[dict[str, Any]] = []
    if ctx.param("system_prompt"):
        messages.append({"role": "system", "content": str(ctx.param("system_prompt"))})
    messages.append({"role": "user", "content": prompt})
    max_tool_turns = max(1, int(ctx.param("max_tool_turns") or 4))
    timeout_s = float(ctx.param("timeout_s") or 60.0)
    for turn in range(max_tool_turns):
        if turn and turn == max_tool_turns - 1:
            messages.append({"role": "user", "content": LAST_TURN_REMINDER})
        reply = await ctx.chat(list(messages), tools=tools, turn=turn, **metadata)  # a copy: the event keeps it
        if not reply.tool_calls:
            return reply.content
        if turn == max_tool_turns - 1:  # no turn is left to read results: the calls are not run (no side effects)
            break
        messages.append({"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls})
        for call in reply.tool_calls:
            function = call.get("function", call)
            raw = function.get("arguments") or {}
            try:
                arguments = json.loads(raw) if isinstance(raw, str) else dict(raw)
            except ValueError as exc:
                result: Any = {"error": f"the arguments are not JSON: {exc}"}
            else:
                result = await ctx.call_tool(str(function.get("name")), arguments, allow=allow,
                                             read_only=read_only, timeout_s=timeout_s, errors="return")
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": as_text(result)})
    if reply.content:
        return reply.content
    raise NodeFailed(f"the model still called tools after max_tool_turns={max_tool_turns} turns and gave no answer")
