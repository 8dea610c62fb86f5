"""Static checks of verifier nodes: a check that cannot judge anything is found before a run.

A verifier's `expression` is a Python expression, a JSON Schema, a regular expression, a shell
command or SQL, by its `check`. The ones that can be checked without running anything are: a Python
expression compiles, a pattern compiles (after its "fullmatch:" / "search:" prefix), a schema is
JSON and a valid schema, and no kind has an empty expression. Each failure is an error on the node's
`params.expression` (a run would only fail at that verifier), saying what is wrong and where in it.

Invariants: read-only; nothing is run or imported from the subject; at most one problem per node.
"""

from __future__ import annotations

import json
import re

from engine.graph.model import Node
from engine.graph.naming import describe_node
from engine.graph.problems import Problem, error

__all__ = ["check_problem"]


def check_problem(node: Node) -> Problem | None:
    """The error of a verifier node whose check cannot run (None for any other node)."""
    if node.role != "verifier":
        return None
    kind, expression = node.param("check"), node.param("expression")
    if not isinstance(kind, str) or not isinstance(expression, str):
        return None  # a wrong type is a parameter problem, reported by param_checks
    if (what := _what_is_wrong(kind, expression)) is None:
        return None
    return error("bad_check", f"The {kind} check of {describe_node(node)} cannot run: {what}.",
                 node_id=node.id, field="params.expression")


def _what_is_wrong(kind: str, expression: str) -> str | None:
    if not expression.strip():
        return "its expression is empty"
    if kind == "python":
        return _python(expression)
    if kind == "regex":
        pattern = expression.removeprefix("fullmatch:").removeprefix("search:")
        try:
            re.compile(pattern)
        except re.error as exc:
            return f"the pattern does not compile at position {exc.pos}: {exc.msg}"
    if kind == "json_schema":
        return _schema(expression)
    return None


def _python(expression: str) -> str | None:
    try:
        compile(expression, "<check>", "eval")
    except SyntaxError as exc:
        where = f" at line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "") if exc.lineno else ""
        return f"the expression is not valid Python{where}: {exc.msg}"
    return None


def _schema(expression: str) -> str | None:
    try:
        schema = json.loads(expression)
    except ValueError as exc:
        return f"the schema is not JSON: {exc}"
    from jsonschema import exceptions, validators

    try:
        validators.validator_for(schema).check_schema(schema)
    except exceptions.SchemaError as exc:
        path = "".join(f"[{p!r}]" for p in exc.absolute_path)
        return f"the schema is not a valid JSON Schema{f' at {path}' if path else ''}: {exc.message}"
    return None
