"""The judge loop shared by critics and verifiers: judge → revise (repair) → replan → human → fail.

A judge's subject comes from an author node. On `revise`, if the judge's verdict output feeds back
into a node upstream of the author (an executor's or planner's `feedback` input), the loop body —
that node up to the author — re-runs with the verdict's reasons, until approval or `max_rounds`
revisions. On `reject`, the nearest planner upstream of the author (or the feedback target, if it is
a planner) replans, at most its `max_replans` times per run; without one the node fails with the
reasons. The best-scoring artifact is kept; with `rollback_on_worse`, a revision that scores worse
is not built upon and the best one is the result. When the loop ends unapproved, a human policy (if
the run has one) may approve or edit the best artifact; otherwise the node fails with the reasons
(and the person's reason for rejecting it, when they gave one). A re-run of the loop body that fails
(its calls' own retries spent) is taken as a reject of that revision: replan if a planner may, else
a person may approve the best artifact so far, else the node fails saying what failed. A judge that
cannot judge at all (no valid verdict after its repair call, a broken check) puts the artifact to a
person the same way (a verdict by "human"), else fails with its error. The engine bounds the loop
itself (`loop_bound`, from max_rounds and the most replans a planner may have): should its counts
ever fail to end it, the node fails saying so instead of running forever.
Judge nodes without a feedback loop only judge: they emit the verdict, and the approved artifact
only on approval. With a loop, the author's other consumers are wired (at compile time, see
`engine.runtime.plan`) to the judge's approved port, so they get the loop's final artifact.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.events import LogMessage
from engine.graph.roles import role_spec
from engine.runtime.context import NodeContext
from engine.runtime.recovery_ladder import count_replan, may_replan, nearest_planner
from engine.runtime.run_services import NodeFailed


def _most_replans() -> int:
    """The most `max_replans` a planner may have (validation holds a workflow to its ParamSpec's maximum)."""
    spec = role_spec("planner")
    found = next((p.maximum for p in spec.params if p.name == "max_replans"), None) if spec is not None else None
    if found is None:
        raise RuntimeError("the planner's role spec names no maximum for max_replans")
    return int(found)


MAX_REPLANS = _most_replans()

Judge = Callable[[NodeContext, Any], Awaitable[dict[str, Any]]]


async def judge_loop(ctx: NodeContext, judge: Judge, approved_port: str, *, judge_model: str | None) -> dict[str, Any]:
    plan = ctx.graph.plan
    subject = next(e for e in ctx.node.inputs if e.target_port == "subject")
    author, author_port = subject.source, subject.source_port
    loop_start = next((e.target for e in ctx.node.outputs if e.target_port == "feedback" and e.kind == "back"), None)
    max_rounds = int(ctx.param("max_rounds") or 0)
    rollback = bool(ctx.param("rollback_on_worse")) if "rollback_on_worse" in ctx.node.params else True
    artifact = ctx.inputs["subject"]
    best: tuple[float, Any] | None = None
    revisions = 0
    failure: str | None = None  # the loop body's last re-run failed: handled as a reject of the revision
    bound, turns = loop_bound(max_rounds), 0
    while True:
        turns += 1
        if turns > bound:  # the counts above failed to end the loop: stop it here, saying where
            raise NodeFailed(f"{ctx.node.label}: its judge loop went round {turns - 1} times, past the engine's bound "
                             f"of {bound} for max_rounds {max_rounds}: a loop that cannot end, stopped")
        if failure is None:
            try:
                verdict = await judge(ctx, artifact)
            except NodeFailed as exc:  # the judge could not judge (no valid verdict, a broken check)
                return await _unjudged(ctx, author, str(exc), artifact, approved_port)
            ctx.verdict(author, verdict, judge_model=judge_model, artifact_seq=_artifact_seq(ctx, author))
            score = float(verdict["score"])
            improved = best is None or score >= best[0]
            if improved:
                best = (score, artifact)
            assert best is not None
            if verdict["decision"] == "approve":
                chosen = artifact if improved or not rollback else best[1]
                return {"verdict": verdict, approved_port: chosen}
            feedback = {**verdict, "artifact": best[1] if rollback else artifact}
            decision, why = str(verdict["decision"]), "rejected"
        else:
            assert best is not None
            verdict = {"decision": "reject", "score": 0.0, "reasons": [failure], "claims": []}
            feedback = {**verdict, "artifact": best[1], "failed": author}
            decision, why, failure = "reject", "a revision failed", None
        if decision == "reject":
            planner = nearest_planner(plan.nodes, _planner_fed(plan.nodes, loop_start) or author,
                                      including_start=True)
            if planner is None or not may_replan(ctx.graph, planner):
                return await _unapproved(ctx, verdict, best[1], approved_port, why)
            count_replan(ctx.graph, planner)
            ctx.round += 1
            start = planner.id
        elif loop_start is None:
            return {"verdict": verdict}
        elif rounds_spent(revisions, max_rounds):
            return await _unapproved(ctx, verdict, best[1], approved_port, f"not approved after {revisions} revision(s)")
        else:
            revisions += 1
            ctx.round += 1
            if (fed := _planner_fed(plan.nodes, loop_start)) is not None:  # a revise sent to a planner is a replan
                count_replan(ctx.graph, plan.nodes[fed])
            start = loop_start
        try:
            outputs = await ctx.rerun(start, author, feedback=feedback, round=ctx.round)
        except NodeFailed as exc:  # the ladder goes on: replan, then a person, then the judge fails
            failure = f"the re-run of {plan.nodes[start].label} … {plan.nodes[author].label} failed: {exc}"
            ctx.emit(LogMessage, node_id=ctx.key, level="warning", message=f"{ctx.node.label}: {failure}")
            continue
        if author_port not in outputs:
            raise NodeFailed(f"the author {author} produced no {author_port!r} when re-run")
        artifact = outputs[author_port]


def rounds_spent(revisions: int, max_rounds: int) -> bool:
    return revisions >= max_rounds


def loop_bound(max_rounds: int) -> int:
    """The most turns a judge loop can take when its counts work: each revision or replan is one turn
    (a failed re-run adds one more), plus the first judgement and the last."""
    return 2 * (max_rounds + MAX_REPLANS + 1) + 2


async def _unapproved(ctx: NodeContext, verdict: dict[str, Any], best: Any, approved_port: str,
                      why: str) -> dict[str, Any]:
    reasons = "; ".join(verdict.get("reasons", [])) or "no reasons given"
    if ctx.services.human is not None:
        decision, edited, said = await ctx.ask_human(f"{ctx.node.label}: {why}. Approve the best artifact?", best)
        if decision in ("approve", "edit"):
            return {"verdict": verdict, approved_port: edited if decision == "edit" else best}
        if said.strip():
            reasons += f"; a person rejected it: {said}"
    raise NodeFailed(f"{why} (last score {float(verdict['score']):.2f}): {reasons}")


async def _unjudged(ctx: NodeContext, author: str, error: str, artifact: Any, approved_port: str) -> dict[str, Any]:
    """The judge itself failed: a person (if the run has a human policy) may approve the artifact in
    its place — a verdict by "human" — else the node fails with the judge's error."""
    if ctx.services.human is not None:
        decision, edited, said = await ctx.ask_human(f"{ctx.node.label} could not judge: {error}. "
                                                     "Approve the artifact in its place?", artifact)
        if decision in ("approve", "edit"):
            verdict = {"decision": "approve", "score": 1.0, "claims": [],
                       "reasons": [f"approved when asked: {ctx.node.label} could not judge ({error})",
                                   *([said] if said.strip() else [])]}
            ctx.verdict(author, verdict, judge_model="human", artifact_seq=_artifact_seq(ctx, author))
            return {"verdict": verdict, approved_port: edited if decision == "edit" else artifact}
        error += f"; a person rejected it: {said}" if said.strip() else "; a person rejected it"
    raise NodeFailed(error)


def _planner_fed(nodes: Any, loop_start: str | None) -> str | None:
    """The planner the judge's feedback goes to, if it goes to one (its revise and reject replan there)."""
    return loop_start if loop_start is not None and nodes[loop_start].role == "planner" else None


def _artifact_seq(ctx: NodeContext, author: str) -> int | None:
    """The seq of the author's latest output event (the artifact judged), from the run's index of them."""
    return ctx.services.hub.output_seqs.get(ctx.graph.key(author))
