"""Tool use by the simulated model: when to call a tool, with which arguments, and the final answer.

With `SimConfig.call_tools` and tools offered (OpenAI `tools=` format), the first turn — no tool
result in the conversation yet — answers with one tool call: the configured `tool` (or the first
offered), with `tool_arguments` (or arguments made up from the tool's JSON schema with the seeded
rng). Once the conversation holds tool results, the reply is the role's normal answer followed by
what each tool returned, so the final answer visibly uses the results.

Invariant: pure functions of their arguments (same rng state, same call and ids).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Mapping
from typing import Any

from engine.llm.sim.config import SimConfig
from engine.llm.types import BadRequestError


def tool_results(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(tool name, result text) of every tool message, named from the assistant call it answers."""
    names: dict[str, str] = {}
    found: list[tuple[str, str]] = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            names[str(call.get("id", ""))] = str(function.get("name", "tool"))
        if message.get("role") == "tool":
            found.append((names.get(str(message.get("tool_call_id", "")), "tool"), str(message.get("content", ""))))
    return found


def wants_tool_call(tools: list[dict[str, Any]] | None, messages: list[dict[str, Any]], config: SimConfig) -> bool:
    return bool(config.call_tools and tools and not tool_results(messages))


def make_tool_call(rng: random.Random, tools: list[dict[str, Any]], prompt: str, config: SimConfig,
                   model: str = "sim") -> dict[str, Any]:
    """One OpenAI-format tool call for this turn; BadRequestError if `config.tool` is not offered."""
    functions = [t.get("function", t) for t in tools]
    wanted = config.tool.replace(".", "__")
    chosen = next((f for f in functions if f.get("name") == wanted), None) if wanted else functions[0]
    if chosen is None:
        offered = ", ".join(str(f.get("name")) for f in functions)
        raise BadRequestError(f"metadata.sim.tool {config.tool!r} is not among the tools offered ({offered})",
                              provider="sim", model=model)
    name = str(chosen.get("name"))
    arguments = (dict(config.tool_arguments) if config.tool_arguments is not None
                 else _arguments(rng, chosen.get("parameters") or {}, prompt))
    text = json.dumps(arguments, sort_keys=True)
    call_id = "call_" + hashlib.sha256(f"{name}:{text}:{prompt}".encode()).hexdigest()[:12]
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


def _arguments(rng: random.Random, schema: Mapping[str, Any], prompt: str) -> dict[str, Any]:
    properties: Mapping[str, Any] = schema.get("properties") or {}
    names = list(schema.get("required") or properties)
    words = re.findall(r"[A-Za-z]+", prompt)[:6]
    values: dict[str, Any] = {}
    for name in names:
        kind = (properties.get(name) or {}).get("type", "string")
        if kind == "integer":
            values[name] = rng.randint(1, 9)
        elif kind == "number":
            values[name] = round(rng.uniform(1, 10), 2)
        elif kind == "boolean":
            values[name] = True
        elif kind == "array":
            values[name] = []
        elif kind == "object":
            values[name] = {}
        else:
            values[name] = " ".join(words) or "example"
    return values


def with_tool_results(content: str, results: list[tuple[str, str]]) -> str:
    used = "\n".join(f"Tool {name} returned: {text}" for name, text in results)
    return f"{content}\n{used}" if used else content


__all__ = ["make_tool_call", "tool_results", "wants_tool_call", "with_tool_results"]
