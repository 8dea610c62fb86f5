"""Human gate, memory, tool and sub-graph nodes — the non-LLM roles wired into the runtime.

- Human gate: asks (GUI via `Run.submit_human_decision`, or the run's `HumanPolicy`, or the node's
  own headless `policy`); approve/edit pass the (edited) subject on `approved`, reject does not. The
  verdict's reasons are "human <decision>" and then the person's reason, when they gave one.
- Memory: read / write / append a key of a named memory in its scope (run → run id, workflow →
  workflow id, global → ""); gated writes are admitted only when the `gate` verdict approves, and a
  refused write's reason says why (no verdict, or its decision, score and reasons: `memory.admit`).
  Every read and write is an event (`MemoryRead` / `MemoryWritten`), which is how the store sees it.
- Tool: one call through the run's tools (allow-list, read-only flag, timeout); its `server` is
  "python" or an MCP stdio command the run starts once and stops at its end (`tooluse.py`).
- Sub-graph: the embedded plan runs inside this node's span, its node ids prefixed `<node>/`; the
  budget of its own run settings holds over its nodes for each execution (`runtime.scope_budget`).
"""

from __future__ import annotations

from typing import Any

from engine.checks.verdict import Verdict
from engine.events import MemoryRead, MemoryWritten
from engine.memory.backend import InMemoryBackend
from engine.memory.gating import admit
from engine.roles.tooluse import tool_node_arguments, tool_node_policy
from engine.runtime.context import NodeContext
from engine.runtime.state import NodeFailed


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


async def run_memory(ctx: NodeContext) -> dict[str, Any]:
    state = ctx.state
    if state.memory is None:  # per-run memory when the run has no backend (nothing outlives the run)
        state.memory = InMemoryBackend()
    name, scope, key = str(ctx.param("memory")), str(ctx.param("scope")), str(ctx.param("key"))
    scope_id = {"run": state.hub.run_id, "workflow": state.workflow_id}.get(scope, "")
    mode = str(ctx.param("mode"))
    current = state.memory.read(name, scope, scope_id, key)
    if mode == "read":
        ctx.emit(MemoryRead, node_id=ctx.key, memory=name, scope=scope, key=key, value=current)
        return {"value": current}
    value = ctx.inputs.get("value")
    if mode == "append":
        value = [*(current if isinstance(current, list) else [] if current is None else [current]), value]
    admitted, reason = True, ""
    if ctx.param("gated"):  # the reason says why a refused write was refused (the gate's decision and reasons)
        admitted, reason = admit(_gate_verdict(ctx.inputs.get("gate")), gated=True)
    if admitted:
        state.memory.write(name, scope, scope_id, key, value)
    ctx.emit(MemoryWritten, node_id=ctx.key, memory=name, scope=scope, key=key, value=value,
             admitted=admitted, reason=reason)
    return {"value": value if admitted else current}


def _gate_verdict(value: Any) -> Verdict | None:
    """The verdict on a memory node's `gate` input (None when there is none, or not a verdict)."""
    if not isinstance(value, dict):
        return None
    try:
        return Verdict.from_record(value)
    except ValueError:
        return None


async def run_tool(ctx: NodeContext) -> dict[str, Any]:
    tool = str(ctx.param("tool") or "")
    if not tool:
        raise NodeFailed("no tool name set")
    tool, allow = await tool_node_policy(ctx, tool)
    arguments = tool_node_arguments(ctx, tool, ctx.inputs.get("args"))
    result = await ctx.call_tool(tool, arguments, allow=allow, read_only=bool(ctx.param("read_only")),
                                 timeout_s=float(ctx.param("timeout_s") or 60.0))
    return {"result": result}


async def run_subgraph(ctx: NodeContext) -> dict[str, Any]:
    from engine.runtime.scheduler import GraphExecutor

    plan = ctx.graph.plan.subplans[ctx.node.id]
    given = ctx.inputs.get("input")
    names = [str(n.param("name") or n.id) for n in plan.nodes.values() if n.role == "input"]
    if isinstance(given, dict) and set(names) <= set(given):
        inputs = dict(given)
    else:
        inputs = {name: given for name in names} if "input" in ctx.inputs else {}
    inner = GraphExecutor(ctx.state, plan, parent_span=ctx.span_id, inputs=inputs, prefix=f"{ctx.key}/")
    budget = ctx.state.budget  # the sub-graph's own run limits hold over its nodes (`runtime.scope_budget`)
    scope = budget.open_scope(ctx.key, plan.budget)
    try:
        results = await budget.within_deadline(inner.execute(), plan.budget.deadline_s, ctx.key, f"sub-graph {ctx.key}")
    finally:
        budget.close_scope(scope)
    if inner.failures:
        raise NodeFailed("sub-graph failed: " + "; ".join(inner.failures))
    return {"output": next(iter(results.values())) if len(results) == 1 else results}

