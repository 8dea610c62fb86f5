"""Parameter JSON schemas derived from a Python function's type hints (via pydantic).

`arguments_model(func)` builds a pydantic model of the function's parameters: its JSON schema is
what the model sees in the OpenAI `tools=` list, and it validates the arguments a model sends before
the function runs. Parameters without a default are required.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

from engine.tools.errors import ToolSetupError


def arguments_model(func: Callable[..., Any], tool: str) -> type[BaseModel]:
    try:
        hints = get_type_hints(func)
    except Exception as exc:  # unresolvable annotations
        raise ToolSetupError(tool, f"tool {tool!r}: cannot read the type hints: {exc}") from exc
    fields: dict[str, Any] = {}
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise ToolSetupError(tool, f"tool {tool!r}: *args / **kwargs are not supported")
        annotation = hints.get(param.name, Any)
        default = ... if param.default is param.empty else param.default
        fields[param.name] = (annotation, default)
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=False)
    try:
        return create_model(f"{tool}_arguments", __config__=config, **fields)  # type: ignore[call-overload,no-any-return]
    except Exception as exc:
        raise ToolSetupError(tool, f"tool {tool!r}: unsupported parameter types: {exc}") from exc


def parameters_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)
    schema.setdefault("properties", {})
    return schema


def describe(func: Callable[..., Any]) -> str:
    return inspect.cleandoc(func.__doc__ or "").split("\n\n")[0]
