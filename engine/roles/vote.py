"""Vote: k independent samples of the same step; the majority answer (normalised text, ties to the
earliest), or the sample a model judge scores highest (`critic` mode). Given a plan, every task is
voted on in turn (decompose-and-vote), each step seeing the voted results before it. Each vote's
outcome is an info `LogMessage` of the node: how many samples agreed (or the judge's scores), and
what the others said. In `critic` mode the samples are judged at once; a judge reply that is not a
verdict leaves its sample unscored (a warning), and with no sample scored the majority decides. The k samples (and the plan's independent tasks) run at once, under the node's
`concurrency` cap and the run's, both held per call by the runtime (`RunServices.call_slots`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from engine.events import LogMessage
from engine.roles.parsing import parse_verdict
from engine.roles.planner import is_plan
from engine.roles.reply_schemas import FORMAT_VERDICT
from engine.roles.taskdag import combine, run_task_dag
from engine.roles.text import as_text, render
from engine.runtime.context import NodeContext


async def run_vote(ctx: NodeContext) -> dict[str, Any]:
    task: Any = ctx.inputs.get("task")
    if is_plan(task):
        tasks: list[dict[str, Any]] = task["tasks"]

        async def one(item: dict[str, Any], deps: dict[str, str]) -> str:
            before = "\n".join(f"[{d}] {r}" for d, r in deps.items())
            return await vote_once(ctx, item["task"] + (f"\n\nEarlier results:\n{before}" if before else ""),
                                   item["id"])

        return {"result": combine(tasks, await run_task_dag(tasks, one))}
    return {"result": await vote_once(ctx, as_text(task), "")}


async def vote_once(ctx: NodeContext, task: str, task_id: str) -> str:
    k = max(1, int(ctx.param("k") or 1))
    prompt = render(str(ctx.param("prompt") or "{task}"), task=task)
    replies = await asyncio.gather(*(ctx.llm(prompt, task=task, task_id=task_id, sample=i) for i in range(k)))
    samples = [r.content for r in replies]
    step = f"vote {task_id}" if task_id else "vote"
    if str(ctx.param("mode")) == "critic" and k > 1:
        return await _critic_pick(ctx, task, samples, step)
    return _majority(ctx, samples, step)


def _majority(ctx: NodeContext, samples: list[str], step: str) -> str:
    counts = Counter(_normal(s) for s in samples)
    best = max(counts.values())
    winner = next(s for s in samples if counts[_normal(s)] == best)
    first: dict[str, str] = {}  # each distinct answer as a sample first said it
    for sample in samples:
        first.setdefault(_normal(sample), sample)
    others = [f"{_short(first[s])} ({n})" for s, n in counts.most_common() if s != _normal(winner)]
    ctx.emit(LogMessage, node_id=ctx.key, message=f"{step}: {best} of {len(samples)} samples agree on {_short(winner)}"
             + (f"; others: {', '.join(others)}" if others else ""))
    return winner


def _normal(sample: str) -> str:
    return " ".join(sample.split()).lower()


def _short(text: str, limit: int = 60) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


async def _critic_pick(ctx: NodeContext, task: str, samples: list[str], step: str) -> str:
    """The sample the judge scores highest; the samples are judged at once. A judge reply that is no
    verdict leaves its sample unscored (a warning says so); with none scored, the majority decides."""
    replies = await asyncio.gather(*(
        ctx.llm(f"Score this answer to: {task}\n\n{sample}\n\n{FORMAT_VERDICT}", role="critic", task=task,
                sample=index, max_rounds=0)
        for index, sample in enumerate(samples)))
    scores: list[float | None] = []
    for index, reply in enumerate(replies):
        try:
            scores.append(parse_verdict(reply.content)["score"])
        except ValueError as exc:
            scores.append(None)
            ctx.emit(LogMessage, node_id=ctx.key, level="warning",
                     message=f"{step}: the judge's reply on sample {index + 1} was not a verdict ({exc}); "
                             "that sample is not scored")
    if all(score is None for score in scores):
        ctx.emit(LogMessage, node_id=ctx.key, level="warning",
                 message=f"{step}: the judge scored no sample; the majority decides")
        return _majority(ctx, samples, step)
    ranked = [-1.0 if score is None else score for score in scores]
    chosen = ranked.index(max(ranked))  # ties to the earliest sample
    shown = ", ".join("-" if s is None else f"{s:.2f}" for s in scores)
    ctx.emit(LogMessage, node_id=ctx.key, message=f"{step}: the judge scored the {len(samples)} samples "
             f"{shown}; kept sample {chosen + 1}: {_short(samples[chosen])}")
    return samples[chosen]
