"""The Human gate role: a person (or the run's policy) approves, edits or rejects the subject.

It asks through the GUI (`Run.submit_human_decision`), the run's `HumanPolicy`, or the node's own
headless `policy`; approve/edit pass the (edited) subject on `approved`, reject does not. The
verdict's reasons are "human <decision>" and then the person's reason, when they gave one.
"""

from __future__ import annotations

from typing import Any

from engine.runtime.context import NodeContext


async def run_human_gate(ctx: NodeContext) -> dict[str, Any]:
    subject = ctx.inputs.get("subject")
    author = next((e.source for e in ctx.node.inputs if e.target_port == "subject"), ctx.node.id)
    decision, edited, reason = await ctx.ask_human(str(ctx.param("prompt")), subject,
                                                   str(ctx.param("policy") or "ask"))
    approved = decision in ("approve", "edit")
    reasons = [f"human {decision}", *([reason] if reason.strip() else [])]  # the person's why, when given
    verdict = {"decision": "approve" if approved else "reject", "score": 1.0 if approved else 0.0,
               "reasons": reasons, "claims": []}
    ctx.verdict(author, verdict, judge_model="human")
    if not approved:
        return {"verdict": verdict}
    return {"verdict": verdict, "approved": edited if decision == "edit" else subject}
