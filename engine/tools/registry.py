"""The tool registry: Python functions and MCP tools, called under a node's policy.

`call` enforces, in order: the tool exists, it is on the node's allow-list (names or fnmatch
patterns such as "files.*"; `allow=None` means no list), a read-only node only calls tools marked
read_only, and the timeout. Violations raise `ToolDenied` / `ToolTimeout`; a tool's own exception
or bad arguments come back as `ToolResult.error`. Results are converted to JSON-able values.

OpenAI function names may not contain dots, so "server.tool" is sent to models as "server__tool";
`get` and `call` accept both spellings.
"""

from __future__ import annotations

import asyncio
import fnmatch
import inspect
import json
import re
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from engine.tools.errors import ToolDenied, ToolError, ToolSetupError, ToolTimeout

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$")


def wire_name(name: str) -> str:
    return name.replace(".", "__")


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments object
    read_only: bool
    handler: Handler  # takes the arguments dict, returns the raw result
    source: str = "python"  # "python" or "mcp:<server>"

    def openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {
            "name": wire_name(self.name), "description": self.description, "parameters": self.parameters}}


@dataclass(frozen=True, slots=True)
class ToolResult:
    name: str
    value: Any = None  # JSON-able
    error: str | None = None
    latency_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_record(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "error": self.error, "latency_s": self.latency_s}


def to_jsonable(value: Any) -> Any:
    from pydantic_core import to_jsonable_python

    return json.loads(json.dumps(to_jsonable_python(value, fallback=repr)))


def _python_handler(func: Callable[..., Any], name: str) -> tuple[Handler, dict[str, Any]]:
    from pydantic import ValidationError

    from engine.tools.signature import arguments_model, parameters_schema

    model = arguments_model(func, name)

    async def handle(arguments: dict[str, Any]) -> Any:
        try:
            parsed = model.model_validate(arguments)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}"
                                 for e in exc.errors())
            raise ValueError(f"invalid arguments: {problems}") from None
        kwargs = {field: getattr(parsed, field) for field in type(parsed).model_fields}
        if inspect.iscoroutinefunction(func):
            return await func(**kwargs)
        return await asyncio.to_thread(func, **kwargs)  # a timed-out sync tool finishes in its thread

    return handle, parameters_schema(model)


class ToolRegistry:
    def __init__(self) -> None:
        self._tools: dict[str, ToolSpec] = {}

    def tool(self, name: str | None = None, *, read_only: bool = True, description: str | None = None
             ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator registering a sync or async function; returns the function unchanged."""
        def register(func: Callable[..., Any]) -> Callable[..., Any]:
            self.add_function(func, name=name, read_only=read_only, description=description)
            return func
        return register

    def add_function(self, func: Callable[..., Any], *, name: str | None = None, read_only: bool = True,
                     description: str | None = None) -> ToolSpec:
        from engine.tools.signature import describe

        tool_name = name or func.__name__
        handler, schema = _python_handler(func, tool_name)
        spec = ToolSpec(tool_name, description if description is not None else describe(func),
                        schema, read_only, handler)
        self.register(spec)
        return spec

    def register(self, spec: ToolSpec, *, replace: bool = False) -> None:
        if not _NAME.match(spec.name) or len(wire_name(spec.name)) > 64:
            raise ToolSetupError(spec.name, f"bad tool name {spec.name!r}: use letters, digits, _ or -, "
                                            "optionally 'server.tool', at most 64 characters")
        if spec.name in self._tools and not replace:
            raise ToolSetupError(spec.name, f"a tool named {spec.name!r} is already registered")
        self._tools[spec.name] = spec

    def unregister(self, name_or_pattern: str) -> list[str]:
        gone = [n for n in self._tools if fnmatch.fnmatchcase(n, name_or_pattern)]
        for name in gone:
            del self._tools[name]
        return gone

    def get(self, name: str) -> ToolSpec | None:
        return self._tools.get(name) or next(
            (s for s in self._tools.values() if wire_name(s.name) == name), None)

    def names(self) -> list[str]:
        return sorted(self._tools)

    def openai_tools(self, allow: Collection[str] | None = None, *, read_only: bool = False
                     ) -> list[dict[str, Any]]:
        """The `tools=` list for a node: only tools it may call."""
        return [s.openai() for n, s in sorted(self._tools.items())
                if _allowed(n, allow) and (s.read_only or not read_only)]

    async def call(self, name: str, arguments: dict[str, Any] | str | None, *,
                   allow: Collection[str] | None, read_only: bool, timeout_s: float) -> ToolResult:
        spec = self.get(name)
        if spec is None:
            known = ", ".join(self.names()) or "none"
            raise ToolDenied(name, f"unknown tool {name!r} (registered: {known})")
        if not _allowed(spec.name, allow):
            listed = ", ".join(allow or ()) or "nothing"
            raise ToolDenied(spec.name, f"tool {spec.name!r} is not on this node's allow-list ({listed})")
        if read_only and not spec.read_only:
            raise ToolDenied(spec.name, f"tool {spec.name!r} may write, and this node is read-only")
        started = time.perf_counter()
        deadline = asyncio.timeout(timeout_s)
        try:
            args = json.loads(arguments) if isinstance(arguments, str) else arguments or {}
            if not isinstance(args, dict):
                raise ValueError("arguments must be a JSON object")
            async with deadline:
                value = to_jsonable(await spec.handler(args))
        except TimeoutError as exc:
            if not deadline.expired():
                return ToolResult(spec.name, None, f"TimeoutError: {exc}", time.perf_counter() - started)
            raise ToolTimeout(spec.name, f"tool {spec.name!r} did not answer within {timeout_s:g} s") from None
        except ToolError:
            raise
        except Exception as exc:
            return ToolResult(spec.name, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - started)
        return ToolResult(spec.name, value, None, time.perf_counter() - started)


def _allowed(name: str, allow: Collection[str] | None) -> bool:
    if allow is None:
        return True
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(wire_name(name), p) for p in allow)
