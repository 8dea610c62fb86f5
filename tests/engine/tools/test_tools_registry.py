"""ToolRegistry: schemas from type hints, allow-list, read-only flag, timeouts, errors as results."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Literal

import pytest

from engine.tools import ToolDenied, ToolRegistry, ToolSetupError, ToolTimeout, builtin_registry


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()

    @registry.tool(description="Search the catalog")
    def search(query: str, limit: int = 5, kinds: list[str] | None = None,
               order: Literal["asc", "desc"] = "asc") -> list[str]:
        return [f"{query}-{i}" for i in range(limit)]

    @registry.tool("notes.save", read_only=False)
    async def save(text: str) -> dict[str, int]:
        """Save a note.

        Longer explanation that is not part of the description."""
        return {"saved": len(text)}

    @registry.tool()
    async def slow(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "late"

    @registry.tool()
    def broken() -> None:
        raise RuntimeError("disk on fire")

    @registry.tool()
    def stamp() -> datetime:
        return datetime(2026, 1, 2, tzinfo=UTC)

    return registry


def test_openai_schema_from_type_hints() -> None:
    tools = {t["function"]["name"]: t for t in make_registry().openai_tools()}
    search = tools["search"]["function"]
    assert tools["search"]["type"] == "function" and search["description"] == "Search the catalog"
    params = search["parameters"]
    assert params["type"] == "object" and params["required"] == ["query"]
    assert params["properties"]["query"] == {"type": "string"}
    assert params["properties"]["limit"] == {"type": "integer", "default": 5}
    assert params["properties"]["order"]["enum"] == ["asc", "desc"]
    assert tools["notes__save"]["function"]["description"] == "Save a note."


def test_openai_tools_follow_allow_list_and_read_only() -> None:
    registry = make_registry()
    assert [t["function"]["name"] for t in registry.openai_tools(["search", "notes.*"])] == [
        "notes__save", "search"]
    assert [t["function"]["name"] for t in registry.openai_tools(["notes.*"], read_only=True)] == []
    assert registry.openai_tools([]) == []


@pytest.mark.asyncio
async def test_call_validates_and_returns_json_values() -> None:
    registry = make_registry()
    result = await registry.call("search", {"query": "lamp", "limit": 2}, allow=None, read_only=True, timeout_s=5)
    assert result.ok and result.value == ["lamp-0", "lamp-1"] and result.latency_s >= 0
    from_json = await registry.call("notes__save", '{"text": "abc"}', allow=["notes.save"], read_only=False,
                                    timeout_s=5)
    assert from_json.value == {"saved": 3} and from_json.name == "notes.save"
    stamped = await registry.call("stamp", {}, allow=None, read_only=True, timeout_s=5)
    assert stamped.value == "2026-01-02T00:00:00Z"
    bad = await registry.call("search", {"limit": "many"}, allow=None, read_only=True, timeout_s=5)
    assert not bad.ok and "query: Field required" in (bad.error or "") and "limit:" in (bad.error or "")
    extra = await registry.call("search", {"query": "x", "evil": 1}, allow=None, read_only=True, timeout_s=5)
    assert "evil" in (extra.error or "")
    failed = await registry.call("broken", {}, allow=None, read_only=True, timeout_s=5)
    assert failed.error == "RuntimeError: disk on fire" and failed.to_record()["value"] is None


@pytest.mark.asyncio
async def test_allow_list_and_read_only_deny_with_clear_messages() -> None:
    registry = make_registry()
    with pytest.raises(ToolDenied, match="not on this node's allow-list \\(search\\)"):
        await registry.call("notes.save", {"text": "x"}, allow=["search"], read_only=False, timeout_s=5)
    with pytest.raises(ToolDenied, match="may write, and this node is read-only"):
        await registry.call("notes.save", {"text": "x"}, allow=None, read_only=True, timeout_s=5)
    with pytest.raises(ToolDenied, match="unknown tool 'nope'"):
        await registry.call("nope", {}, allow=None, read_only=False, timeout_s=5)
    with pytest.raises(ToolDenied):
        await registry.call("search", {"query": "x"}, allow=[], read_only=True, timeout_s=5)


@pytest.mark.asyncio
async def test_timeout_raises_tool_timeout_promptly() -> None:
    started = time.monotonic()
    with pytest.raises(ToolTimeout, match=r"did not answer within 0\.2 s") as info:
        await make_registry().call("slow", {"seconds": 10}, allow=None, read_only=True, timeout_s=0.2)
    assert info.value.tool == "slow" and time.monotonic() - started < 2


def test_registration_errors() -> None:
    registry = make_registry()
    with pytest.raises(ToolSetupError, match="already registered"):
        registry.add_function(lambda query: query, name="search")
    with pytest.raises(ToolSetupError, match="bad tool name"):
        registry.add_function(lambda: 1, name="has space")
    with pytest.raises(ToolSetupError, match="args"):
        registry.add_function(lambda *items: items, name="star")
    assert registry.unregister("notes.*") == ["notes.save"] and "notes.save" not in registry.names()


@pytest.mark.asyncio
async def test_builtin_tools() -> None:
    clock = datetime(2030, 5, 6, 7, 8, 9, tzinfo=UTC)
    registry = builtin_registry(clock=lambda: clock)
    assert registry.names() == ["calculator", "read_example_file", "utc_now", "word_count"]

    async def call(tool: str, /, **args: object) -> object:
        result = await registry.call(tool, args, allow=None, read_only=True, timeout_s=5)
        return result.value if result.ok else result.error

    assert await call("calculator", expression="2 * (3 + 4) ** 2") == 98
    assert await call("calculator", expression="round(sqrt(2) * 100) / 100") == 1.41
    assert "not allowed" in str(await call("calculator", expression="__import__('os').getcwd()"))
    assert "too large" in str(await call("calculator", expression="9 ** 9 ** 9"))
    assert "not allowed" in str(await call("calculator", expression="(lambda: 1)()"))
    assert await call("word_count", text="one two\nthree") == {"words": 3, "characters": 13, "lines": 2}
    assert await call("utc_now") == "2030-05-06T07:08:09+00:00"
    assert "customers" in str(await call("read_example_file", name="shop_schema.txt"))
    assert "parse_duration" in str(await call("read_example_file", name="code_fix/spec.md"))
    assert "inside the bundled examples" in str(await call("read_example_file", name="../../pyproject.toml"))
    assert "inside the bundled examples" in str(await call("read_example_file", name="/etc/passwd"))
    assert "not a text file" in str(await call("read_example_file", name="shop.sqlite"))
