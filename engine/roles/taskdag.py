"""Running a plan's tasks as a DAG: each task starts when the tasks it depends on are done.

Invariant: dependencies only point to earlier tasks (`parse_plan` guarantees it), so the DAG is
acyclic; independent tasks run concurrently; the first failure cancels the rest and is raised.
No cap here: the node's `concurrency` and the run's are held per call (`RunServices.call_slots`), so
a task waiting for a slot holds nothing, and fan-outs nested inside a task share the same cap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

TaskRunner = Callable[[dict[str, Any], dict[str, str]], Awaitable[str]]


async def run_task_dag(tasks: list[dict[str, Any]], run_one: TaskRunner) -> dict[str, str]:
    """Results by task id; `run_one(task, {dep_id: dep_result})` runs one task."""
    futures: dict[str, asyncio.Task[str]] = {}

    async def one(task: dict[str, Any]) -> str:
        deps = {d: await futures[d] for d in task.get("depends_on", []) if d in futures}
        return await run_one(task, deps)

    for task in tasks:
        futures[task["id"]] = asyncio.ensure_future(one(task))
    try:
        await asyncio.gather(*futures.values())
    except BaseException:
        for future in futures.values():
            future.cancel()
        await asyncio.gather(*futures.values(), return_exceptions=True)
        raise
    return {tid: f.result() for tid, f in futures.items()}


def combine(tasks: list[dict[str, Any]], results: dict[str, str]) -> str:
    return "\n\n".join(f"## {t['id']}: {t['task']}\n{results[t['id']]}" for t in tasks)
