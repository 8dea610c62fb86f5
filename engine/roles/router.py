"""The router: sends its value to exactly one of its routes (one output port per route name).

Modes: `condition` — a restricted expression over `value` and `round` giving a route name (or a
bool: True → first route, False → second); `classifier` — a model picks one of the routes (the
provider gets them in metadata `routes`); `escalate` — routes are ordered cheap → strong and each
detected stall (the same value seen twice, or a value that is a non-approving verdict) moves one
route up, never past the last. Unrouted branches are skipped downstream.
"""

from __future__ import annotations

import json
from typing import Any

from engine.roles.expr import ExpressionError, evaluate
from engine.roles.text import as_text
from engine.runtime.context import NodeContext
from engine.runtime.run_services import NodeFailed


async def run_router(ctx: NodeContext) -> dict[str, Any]:
    routes = [str(r) for r in ctx.param("routes") or []]
    if not routes:
        raise NodeFailed("the router has no routes")
    value = ctx.inputs.get("value")
    mode = str(ctx.param("mode") or "condition")
    if mode == "classifier":
        route = await _classify(ctx, value, routes)
    elif mode == "escalate":
        route = _escalate(ctx, value, routes)
    else:
        route = _condition(ctx, value, routes)
    return {route: value}


def _condition(ctx: NodeContext, value: Any, routes: list[str]) -> str:
    source = str(ctx.param("condition") or "")
    try:
        result = evaluate(source, {"value": value, "text": as_text(value), "round": ctx.round, "routes": routes})
    except (ExpressionError, LookupError, TypeError, ValueError, ArithmeticError) as exc:
        raise NodeFailed(f"condition {source!r} failed: {exc}") from exc
    if isinstance(result, bool) and len(routes) >= 2:
        return routes[0] if result else routes[1]
    if str(result) not in routes:
        raise NodeFailed(f"condition {source!r} gave {result!r}, which is not one of the routes {routes}")
    return str(result)


async def _classify(ctx: NodeContext, value: Any, routes: list[str]) -> str:
    prompt = f"Pick the best route for this input. Routes: {', '.join(routes)}.\nReply with one route name.\n\n{as_text(value)}"
    reply = await ctx.llm(prompt, routes=routes, task=as_text(value)[:500])
    text = reply.content.strip().lower()
    exact = [r for r in routes if text == r.lower()]
    contained = [r for r in routes if r.lower() in text]
    if exact or contained:
        return (exact or contained)[0]
    raise NodeFailed(f"the classifier answered {reply.content[:80]!r}, which names none of the routes {routes}")


def _escalate(ctx: NodeContext, value: Any, routes: list[str]) -> str:
    """One route up per stall so far: every value seen before, and every failing verdict, counts
    (all of them, not just the newest: three failing verdicts in a row reach the third route)."""
    history = ctx.services.router_history.setdefault(ctx.key, [])
    history.append(as_text(value))
    stalls = sum(1 for i, seen in enumerate(history) if seen in history[:i] or _failing_verdict(seen))
    return routes[min(stalls, len(routes) - 1)]


def _failing_verdict(text: str) -> bool:
    """Whether a value (as recorded in the history) is a verdict that does not approve."""
    if not text.startswith("{"):
        return False
    try:
        value = json.loads(text)
    except ValueError:
        return False
    return isinstance(value, dict) and value.get("decision") in ("revise", "reject")
