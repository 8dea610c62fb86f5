"""The Memory role: read / write / append a key of a named memory in its scope.

Scopes: run → run id, workflow → workflow id, global → "". Gated writes are admitted only when the
`gate` verdict approves, and a refused write's reason says why (no verdict, or its decision, score
and reasons: `memory.admit`). Every read and write is an event (`MemoryRead` / `MemoryWritten`),
which is how the store sees it; a run without a memory backend gets one that lives as long as the run.
"""

from __future__ import annotations

from typing import Any

from engine.checks.verdict import Verdict
from engine.events import MemoryRead, MemoryWritten
from engine.memory.backend import InMemoryBackend
from engine.memory.gating import admit
from engine.runtime.context import NodeContext


async def run_memory(ctx: NodeContext) -> dict[str, Any]:
    services = ctx.services
    if services.memory is None:  # per-run memory when the run has no backend (nothing outlives the run)
        services.memory = InMemoryBackend()
    name, scope, key = str(ctx.param("memory")), str(ctx.param("scope")), str(ctx.param("key"))
    scope_id = {"run": services.hub.run_id, "workflow": services.workflow_id}.get(scope, "")
    mode = str(ctx.param("mode"))
    current = services.memory.read(name, scope, scope_id, key)
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
        services.memory.write(name, scope, scope_id, key, value)
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
