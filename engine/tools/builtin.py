"""A small set of safe built-in tools, all read-only and offline.

- `calculator(expression)`: arithmetic over an AST whitelist (numbers, + - * / // % **, unary
  signs, a few math functions and constants); exponents and result sizes are bounded;
- `word_count(text)`: words, characters and lines;
- `utc_now()`: the current UTC time from an injected clock (replay-friendly);
- `read_example_file(name)`: a text file bundled in resources/examples/data (no path escapes).
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources
from pathlib import PurePosixPath
from typing import Any

from engine.tools.registry import ToolRegistry

MAX_EXPRESSION = 500
MAX_FILE_BYTES = 256 << 10
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt, "log": math.log, "log10": math.log10, "exp": math.exp, "sin": math.sin,
    "cos": math.cos, "tan": math.tan, "abs": abs, "round": round, "floor": math.floor, "ceil": math.ceil,
    "min": min, "max": max}
_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 1000 or abs(left) > 1e12):
            raise ValueError("exponentiation too large (base <= 1e12, exponent <= 1000)")
        result = _BINARY[type(node.op)](left, right)
        if isinstance(result, int) and result.bit_length() > 4000:
            raise ValueError("result too large")
        return result
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS
            and not node.keywords):
        return _FUNCTIONS[node.func.id](*(_eval(a) for a in node.args))
    raise ValueError(f"not allowed in a calculation: {ast.unparse(node)!r}")


def calculate(expression: str) -> float | int:
    """Evaluate an arithmetic expression such as "2 * (3 + 4) ** 2" or "sqrt(2) / pi"."""
    if len(expression) > MAX_EXPRESSION:
        raise ValueError(f"expression longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not an arithmetic expression: {exc.msg} at column {exc.offset}") from None
    result: float | int = _eval(tree.body)
    return result


def word_count(text: str) -> dict[str, int]:
    """Count the words, characters and lines of a text."""
    return {"words": len(text.split()), "characters": len(text), "lines": len(text.splitlines())}


def read_example_file(name: str) -> str:
    """Read a text file bundled with the examples (e.g. "shop_schema.txt", "code_fix/spec.md")."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ValueError(f"{name!r}: give a path inside the bundled examples folder")
    target = resources.files("resources.examples.data").joinpath(*path.parts)
    if not target.is_file():
        raise ValueError(f"{name!r}: no such bundled example file")
    data = target.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{name!r} is larger than {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{name!r} is not a text file") from None


def register_builtin_tools(registry: ToolRegistry, *, clock: Callable[[], datetime] | None = None) -> None:
    """Add the built-in tools; `clock` (default: the real UTC clock) feeds `utc_now`."""
    now = clock or (lambda: datetime.now(UTC))

    def utc_now() -> str:
        """The current date and time in UTC, ISO 8601."""
        return now().astimezone(UTC).isoformat()

    registry.add_function(calculate, name="calculator")
    registry.add_function(word_count)
    registry.add_function(utc_now)
    registry.add_function(read_example_file)


def builtin_registry(*, clock: Callable[[], datetime] | None = None) -> ToolRegistry:
    registry = ToolRegistry()
    register_builtin_tools(registry, clock=clock)
    return registry
