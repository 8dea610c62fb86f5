"""Benchmark of deterministic checks, the sandbox and tool calls.

Figures (medians over repeats):
- check latency per kind (python, regex, command, sql, json_schema), end to end through `run_check`;
  the peer of the sandboxed python check is a bare `subprocess` of the same interpreter running the
  same expression without sandboxing (no temp dir, no limits, no privilege drop), reported as a ratio;
- the overhead of `ToolRegistry.call` on a trivial async tool (validation, policy, timeout), with a
  direct await of the same function as the peer;
- an MCP tool call over stdio to the test demo server, and its start + stop time.

Run: `.venv/bin/python -m tests.perf.bench_checks`
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from engine.checks import run_check
from engine.checks.sandbox import sandbox_python
from engine.tools import ToolRegistry
from engine.tools.mcp import McpServer

REPEATS = 15
SCHEMA = json.dumps({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}})
DEMO = Path(__file__).resolve().parents[1] / "engine" / "tools" / "mcp_demo_server.py"


def emit(name: str, value: float, unit: str, **extra: Any) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


async def median_ms(make: Callable[[], Awaitable[Any]], repeats: int = REPEATS) -> float:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        await make()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def bare_subprocess() -> None:
    proc = await asyncio.create_subprocess_exec(
        sandbox_python(), "-I", "-c", "print(len('hello world') > 3)", stdout=asyncio.subprocess.PIPE)
    await proc.communicate()


async def checks() -> None:
    cases = {
        "python": ("len(subject) > 3", "hello world"),
        "regex": (r"fullmatch:[a-z ]+", "hello world"),
        "command": ('grep -q hello "$SUBJECT"', "hello world"),
        "sql": ("db=shop.sqlite; expect=row_count == 5", "SELECT category, COUNT(*) FROM products GROUP BY 1"),
        "sql_no_expect": ("db=shop.sqlite", "SELECT * FROM orders WHERE status = 'delivered'"),
        "json_schema": (SCHEMA, '{"a": 1}'),
    }
    peer = await median_ms(bare_subprocess)
    for kind, (expression, subject) in cases.items():
        real_kind = kind.removesuffix("_no_expect")
        value = await median_ms(lambda k=real_kind, e=expression, s=subject: run_check(k, e, s, timeout_s=10))
        extra = {"peer": "bare subprocess", "peer_value": round(peer, 3), "ratio": round(value / peer, 2)} \
            if kind == "python" else {}
        emit(f"check_{kind}_latency", value, "ms", **extra)


async def tools() -> None:
    registry = ToolRegistry()

    @registry.tool()
    async def echo(text: str) -> str:
        return text

    calls = 2000
    started = time.perf_counter()
    for _ in range(calls):
        await registry.call("echo", {"text": "hi"}, allow=["echo"], read_only=True, timeout_s=5)
    registry_us = (time.perf_counter() - started) / calls * 1e6
    started = time.perf_counter()
    for _ in range(calls):
        await echo("hi")
    direct_us = (time.perf_counter() - started) / calls * 1e6
    emit("tool_call_overhead", registry_us, "us", peer="direct await", peer_value=round(direct_us, 3))


async def mcp() -> None:
    started = time.perf_counter()
    async with McpServer([sys.executable, str(DEMO)]) as server:
        up = time.perf_counter() - started
        value = await median_ms(lambda: server.call_tool("add", {"a": 1, "b": 2}), repeats=200)
        stopping = time.perf_counter()
    emit("mcp_call_latency", value, "ms")
    emit("mcp_server_start", up * 1000, "ms")
    emit("mcp_server_stop", (time.perf_counter() - stopping) * 1000, "ms")


def main() -> None:
    asyncio.run(checks())
    asyncio.run(tools())
    asyncio.run(mcp())


if __name__ == "__main__":
    main()
