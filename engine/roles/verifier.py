"""The verifier: a deterministic check (python / json_schema / regex / command / sql, from
`engine.checks`) judging its subject, driven by the same judge loop as critics (`review.py`).

Each check is recorded as a tool call (`check.<kind>`) so traces show what ran and its verdict;
its span always closes (`NodeContext.tool_span`): "cancelled" when the run's cancel, a budget or a
deadline cuts the check, the check's error when it raises (which fails the node as before).
A check that cannot judge at all (`Verdict.broken`: its expression, schema or command is wrong or
missing) fails the node at once with what to fix: no revision or replan of the subject could help.
`{data}` in the expression stands for the bundled example data folder (resources/examples/data).
In a strict replay (`engine.replay`) the check is not run: the recorded verdict is served.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from engine.roles.review import judge_loop
from engine.runtime.context import NodeContext
from engine.runtime.run_services import NodeFailed

DATA_DIR = Path(__file__).resolve().parents[2] / "resources" / "examples" / "data"


async def check_subject(ctx: NodeContext, artifact: Any) -> dict[str, Any]:
    from engine.checks import run_check

    kind = str(ctx.param("check") or "python")
    expression = str(ctx.param("expression") or "").replace("{data}", str(DATA_DIR))
    with ctx.tool_span(f"check.{kind}", {"expression": expression}) as span:
        if (served := _from_recording(ctx, f"check.{kind}", {"expression": expression})) is not None:
            span.finish(result=served)  # a strict replay: the recorded verdict, the check is not run again
            return served
        result = await run_check(kind, expression, artifact, timeout_s=float(ctx.param("timeout_s") or 60.0))
        if result.broken:  # no revision of the subject can fix the check itself: fail now, say what to fix
            raise NodeFailed(f"the {kind} check cannot judge anything: {'; '.join(result.reasons)} "
                             f"(fix the verifier's check; no revision was asked for)")
        verdict = {"decision": result.decision, "score": float(result.score), "reasons": list(result.reasons),
                   "claims": list(result.claims)}
        span.finish(result=verdict)
    return verdict


def _from_recording(ctx: NodeContext, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The recorded verdict when the run is a strict replay. A run's tools can only be a `ReplayTools`
    once `engine.replay` was imported: a live run does not import it for this question."""
    replay = sys.modules.get("engine.replay.services")
    tools = ctx.services.tools
    if replay is None or not isinstance(tools, replay.ReplayTools):
        return None
    served: dict[str, Any] | None = tools.recorded_check(tool, arguments)
    return served


async def run_verifier(ctx: NodeContext) -> dict[str, Any]:
    return await judge_loop(ctx, check_subject, "passed", judge_model=None)
