"""The JSON Schemas a planner's plan and a critic's verdict are validated against, and how to say
what is wrong with a reply that does not match (for the repair call and the node's failure).

The schemas accept what models commonly send and the roles normalise afterwards (`parsing.py`): a
plan is `{"tasks": [...]}` or a bare list; a task is an object with a non-empty `task` text, or
just that text; ids may be strings or integers; `reasons` may be one string. `FORMAT_*` are the
instructions appended to the prompts, so a model is told the shape before its first reply.

Invariant: `schema_problems` lists every violation (at most `_MAX_LISTED`), each as
"<where>: <what>", `where` a path such as `tasks[2].depends_on` (`reply` for the whole reply).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_ID = {"type": ["string", "integer"]}
_TASK = {"oneOf": [
    {"type": "string", "minLength": 1, "pattern": r"\S"},
    {"type": "object", "required": ["task"], "properties": {
        "id": _ID,
        "task": {"type": "string", "minLength": 1, "pattern": r"\S"},
        "depends_on": {"type": "array", "items": _ID}}},
]}
_TASKS = {"type": "array", "minItems": 1, "items": _TASK}

PLAN_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Plan",
    "oneOf": [{"type": "object", "required": ["tasks"], "properties": {"goal": {"type": "string"}, "tasks": _TASKS}},
              _TASKS],
}

VERDICT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Verdict",
    "type": "object",
    "required": ["decision"],
    "properties": {
        "decision": {"enum": ["approve", "revise", "reject"]},  # compared lower-cased (`parsing.py`)
        "score": {"type": "number"},
        "reasons": {"type": ["array", "string"], "items": {"type": "string"}},
        "claims": {"type": "array", "items": {"type": "object"}},
    },
}

FORMAT_PLAN = ('Reply with only a JSON plan of this shape: {"tasks": [{"id": "t1", "task": "<the first step, in '
               'your words>", "depends_on": []}, {"id": "t2", "task": "<a step that needs the result of t1>", '
               '"depends_on": ["t1"]}]} — at most {max_tasks} tasks; depends_on lists the ids of the tasks whose '
               'results a task needs (tasks without them run in parallel).')
FORMAT_VERDICT = ('Reply with only a JSON verdict: {"decision": "approve|revise|reject", "score": 0..1, '
                  '"reasons": [...], "claims": [{"claim": "...", "supported": true}]}')

_MAX_LISTED = 5
_VALIDATORS: dict[str, Any] = {}  # by title, for this module's schemas: made on first use
_COMPILED: dict[str, Callable[[Any], Any]] = {}  # the same, compiled to Python code (fastjsonschema)


def schema_problems(value: Any, schema: dict[str, Any]) -> list[str]:
    """What in `value` does not match `schema` (empty when it matches).

    A plan or verdict is first checked by its schema compiled to Python code (`fastjsonschema`, made once:
    a few µs a reply, where walking the schema takes ~70); only a reply that fails goes through
    `jsonschema`, whose errors say where and what (tests hold the two to the same answers)."""
    if (schema is PLAN_SCHEMA or schema is VERDICT_SCHEMA) and _matches_compiled(value, schema):
        return []
    from jsonschema import Draft202012Validator  # on first use, as everywhere: it pulls in referencing/attrs

    if schema is PLAN_SCHEMA or schema is VERDICT_SCHEMA:
        validator = _VALIDATORS.get(schema["title"])
        if validator is None:
            validator = _VALIDATORS[schema["title"]] = Draft202012Validator(schema)
    else:
        validator = Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path)):
        leaves = _leaves(error)
        for leaf in leaves[:_MAX_LISTED]:
            problems.append(f"{_where(leaf.absolute_path)}: {leaf.message}")
    return list(dict.fromkeys(problems))[:_MAX_LISTED]


def _matches_compiled(value: Any, schema: dict[str, Any]) -> bool:
    import fastjsonschema

    check = _COMPILED.get(schema["title"])
    if check is None:
        check = _COMPILED[schema["title"]] = fastjsonschema.compile(schema, use_default=False)
    try:
        check(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _leaves(error: Any) -> list[Any]:
    """For a `oneOf` miss, the errors of the alternatives that came closest (the deepest, followed
    down), not the summary "is not valid under any of the given schemas"."""
    if not error.context:
        return [error]
    deepest = max(len(e.absolute_path) for e in error.context)
    if deepest <= len(error.absolute_path) and all(not e.context for e in error.context):
        return [error]
    return [leaf for e in error.context if len(e.absolute_path) == deepest for leaf in _leaves(e)]


def _where(path: Any) -> str:
    text = "reply"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text
