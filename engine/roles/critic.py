"""The critic: an LLM judge returning a structured verdict, driven by the judge loop (`review.py`)."""

from __future__ import annotations

from typing import Any

from engine.roles.parsing import parse_verdict, parse_with_repair
from engine.roles.reply_schemas import FORMAT_VERDICT
from engine.roles.review import judge_loop
from engine.roles.text import as_text
from engine.runtime.context import NodeContext


async def judge_with_model(ctx: NodeContext, artifact: Any) -> dict[str, Any]:
    rubric = str(ctx.param("rubric") or "")
    prompt = f"Review this artifact.\nRubric: {rubric}\n\nArtifact:\n{as_text(artifact)}\n\n{FORMAT_VERDICT}"
    meta: dict[str, Any] = {"max_rounds": int(ctx.param("max_rounds") or 0), "task": rubric}
    reply = await ctx.llm(prompt, **meta)
    verdict = await parse_with_repair(ctx, reply, parse_verdict, "verdict", **meta)
    if verdict["decision"] == "approve" and verdict["score"] < float(ctx.param("approve_score") or 0.0):
        verdict["decision"] = "revise"
        verdict["reasons"].append(f"score {verdict['score']:.2f} is below the approval threshold "
                                  f"{float(ctx.param('approve_score')):.2f}")
    return verdict


async def run_critic(ctx: NodeContext) -> dict[str, Any]:
    return await judge_loop(ctx, judge_with_model, "approved", judge_model=ctx.model)
