"""Parsing the structured replies of models — plans and verdicts — with one repair round.

Plans and verdicts are validated against their JSON Schemas (`reply_schemas.py`), then normalised.
Invariants: a parsed plan is a DAG whose tasks come after the tasks they depend on (a task listed
before its dependency is moved after it; unknown ids and cycle-closing dependencies are dropped)
with unique ids and at most `max_tasks` tasks; a parsed verdict has a known
decision and a score clamped to 0..1. A reply that does not parse gets one repair call telling the
model what was wrong (announced by a recoverable `ErrorRaised`, "MalformedReply"); if that fails too
the node fails with both errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.events import ErrorRaised
from engine.llm.types import LLMResponse
from engine.roles.reply_schemas import PLAN_SCHEMA, VERDICT_SCHEMA, schema_problems
from engine.roles.text import extract_json
from engine.runtime.context import NodeContext
from engine.runtime.run_services import NodeFailed

T = TypeVar("T")
_PLAN_SHAPE = 'a plan is {"tasks": [{"id", "task", "depends_on"}, ...]} with at least one task'


def parse_plan(text: str, max_tasks: int) -> list[dict[str, Any]]:
    return read_plan(text, max_tasks)[0]


def read_plan(text: str, max_tasks: int) -> tuple[list[dict[str, Any]], int]:
    """The plan in `text` (validated against `PLAN_SCHEMA`, normalised), and how many tasks past
    `max_tasks` were left out."""
    data = extract_json(text)
    if problems := schema_problems(data, PLAN_SCHEMA):
        raise ValueError(f"it does not match the plan schema ({'; '.join(problems)}); {_PLAN_SHAPE}")
    raw = data["tasks"] if isinstance(data, dict) else data
    tasks: list[dict[str, Any]] = []
    for index, item in enumerate(raw[:max_tasks]):
        if isinstance(item, str):
            item = {"task": item}
        task_id = str(item.get("id") or f"t{index + 1}")
        if any(t["id"] == task_id for t in tasks):
            task_id = f"{task_id}_{index + 1}"
        tasks.append({"id": task_id, "task": str(item["task"]),
                      "depends_on": [str(d) for d in item.get("depends_on") or []]})
    return dependencies_first(tasks), max(0, len(raw) - max_tasks)


def dependencies_first(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks in list order, except that a task listed before one it depends on moves after it
    (so its dependency's result is not lost). Dependencies on unknown ids or on itself are dropped;
    a cycle is broken at its earliest-listed task, which loses its dependencies inside the cycle."""
    ids = {t["id"] for t in tasks}
    pending = {t["id"]: {**t, "depends_on": [d for d in dict.fromkeys(t["depends_on"]) if d in ids and d != t["id"]]}
               for t in tasks}  # insertion order is list order
    placed: list[dict[str, Any]] = []
    while pending:
        path = [next(iter(pending))]  # follow the first open dependency until a task that can go now
        while open_deps := [d for d in pending[path[-1]]["depends_on"] if d in pending]:
            if open_deps[0] not in path:
                path.append(open_deps[0])
                continue
            cycle = set(path[path.index(open_deps[0]):])
            first = next(tid for tid in pending if tid in cycle)
            pending[first]["depends_on"] = [d for d in pending[first]["depends_on"] if d not in cycle]
            path = path[: path.index(first) + 1]
        placed.append(pending.pop(path[-1]))
    return placed


def parse_verdict(text: str) -> dict[str, Any]:
    """The verdict in `text`, validated against `VERDICT_SCHEMA`; the score clamped to 0..1."""
    data = extract_json(text)
    if isinstance(data, dict) and isinstance(data.get("decision"), str):
        data = {**data, "decision": data["decision"].strip().lower()}
    if problems := schema_problems(data, VERDICT_SCHEMA):
        raise ValueError(f"it does not match the verdict schema ({'; '.join(problems)})")
    reasons, claims = data.get("reasons") or [], data.get("claims") or []
    return {"decision": data["decision"], "score": min(1.0, max(0.0, float(data.get("score", 0.0)))),
            "reasons": [str(r) for r in reasons] if isinstance(reasons, list) else [str(reasons)],
            "claims": list(claims)}


async def parse_with_repair(ctx: NodeContext, reply: LLMResponse, parse: Callable[[str], T], what: str,
                            **metadata: Any) -> T:
    """`parse` of the reply's text; else one repair call saying what was wrong (and that the reply was
    cut off at the model's output limit, when it was: the JSON then cannot be whole), then NodeFailed."""
    try:
        return parse(reply.content)
    except ValueError as exc:
        first = _why(exc, reply)
    ctx.emit(ErrorRaised, node_id=ctx.key, error_type="MalformedReply", recoverable=True,
             message=f"the model's reply was not a valid {what} ({first}); it is asked once to repair it")
    shorter = " Keep it short enough to finish." if reply.finish_reason == "length" else ""
    prompt = (f"Your previous reply was not a valid {what}: {first}. Reply again with only the JSON.{shorter}\n\n"
              f"Previous reply:\n{reply.content[:2000]}")
    repaired = await ctx.llm(prompt, repair=True, **metadata)
    try:
        return parse(repaired.content)
    except ValueError as exc:
        second = _why(exc, repaired)
        then = "the repaired reply had the same fault" if second == first else f"then: {second}"
        raise NodeFailed(f"the model gave no valid {what}, even after a repair round: {first}; {then}") from None


def _why(error: ValueError, reply: LLMResponse) -> str:
    if reply.finish_reason == "length":
        return f"the reply was cut off at the model's output limit ({reply.tokens_out} tokens), so its JSON is not whole"
    return str(error)
