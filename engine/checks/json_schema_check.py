"""JSON-schema check: the subject is parsed as JSON and validated with `jsonschema`.

Validation executes no subject code but can run for minutes (a backtracking `pattern`) and holds the
GIL while it does, so `check_json_schema_bounded` runs a schema with a `pattern` in a killable child
process (`engine.checks.bounded`) held to the check's timeout and a memory cap, and any other schema in
a worker thread (no regular expression: linear work, the loop keeps its turns). Every validation error becomes a
reason naming the JSON path where it occurred ("$.items[2].price: -1 is less than the minimum of 0").
A schema that is not valid JSON or not a valid schema is the author's mistake: "reject".
"""

from __future__ import annotations

import json
from typing import Any

from engine.checks.verdict import Verdict, approve, broken, revise

MAX_SUBJECT_CHARS = 8 << 20
MAX_REASONS = 20


def json_path(path: Any) -> str:
    out = "$"
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def parse_subject(subject: Any) -> tuple[Any, str | None]:
    """The subject as a JSON value: strings are parsed (code fences around them are allowed)."""
    if not isinstance(subject, str):
        return subject, None
    if len(subject) > MAX_SUBJECT_CHARS:
        return None, f"subject is {len(subject)} characters, over the {MAX_SUBJECT_CHARS} limit"
    text = subject.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"subject is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"


def check_json_schema(expression: str, subject: Any) -> Verdict:
    import jsonschema  # imported on first use: it pulls in referencing/attrs

    try:
        schema = json.loads(expression)
    except json.JSONDecodeError as exc:
        return broken(f"the schema is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
    try:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator_cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return broken(f"the schema itself is invalid at {json_path(exc.absolute_path)}: {exc.message}")
    value, problem = parse_subject(subject)
    if problem is not None:
        return revise(problem)
    errors = sorted(validator_cls(schema).iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return approve("the subject matches the schema")
    reasons = [f"{json_path(e.absolute_path)}: {e.message}" for e in errors[:MAX_REASONS]]
    if len(errors) > MAX_REASONS:
        reasons.append(f"... and {len(errors) - MAX_REASONS} more errors")
    return revise(*reasons)


def verdict_record(expression: str, subject: Any) -> dict[str, Any]:
    """`check_json_schema` as a JSON-able record (what the bounded child process returns)."""
    verdict = check_json_schema(expression, subject)
    return {**verdict.to_record(), "broken": verdict.broken}


async def check_json_schema_bounded(expression: str, subject: Any, *, timeout_s: float) -> Verdict:
    """`check_json_schema` off the event loop and held to `timeout_s`: a schema with a regular
    expression (`pattern`, `patternProperties`) is validated in a child process killed at the timeout
    (~0.2 s to start); one without — linear work that lets the loop run — in a worker thread (~1 ms)."""
    import asyncio

    from engine.checks.bounded import call_bounded

    if '"pattern' not in expression:
        try:
            return await asyncio.wait_for(asyncio.to_thread(check_json_schema, expression, subject), timeout_s)
        except TimeoutError:
            return revise(f"validating the subject against the schema did not finish within {timeout_s:g} s")
    status, value = await call_bounded("engine.checks.json_schema_check:verdict_record",
                                       {"expression": expression, "subject": _jsonable(subject)}, timeout_s=timeout_s)
    if status == "ok":
        verdict = Verdict.from_record(value)
        return broken(*verdict.reasons) if value.get("broken") else verdict
    if status == "timeout":
        return revise(f"validating the subject against the schema {value} (a backtracking pattern?)")
    return broken(f"the json_schema check could not run: {value}")


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return json.dumps(value, default=str)
