"""The zero-latency in-process model of the shape benchmarks, shared by the engine and its peer.

It streams one delta per call and counts its calls (the benchmarks' "nodes": node executions,
re-runs included). A critic's first look at an artifact gets a "revise" verdict (score 0.5), the
revised artifact an "approve" (0.9), so every critic loop runs exactly once around; an executor
answers "revised" when its prompt carries a reviewer's judgement, else "ok".
"""

from __future__ import annotations

import json
from collections.abc import Callable

from engine.llm.types import LLMRequest, LLMResponse

_REVISE = json.dumps({"decision": "revise", "score": 0.5, "reasons": ["too short"], "claims": []})
_APPROVE = json.dumps({"decision": "approve", "score": 0.9, "reasons": ["fine"], "claims": []})


class ShapeModel:
    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        self.calls += 1
        prompt = str(request.messages[-1]["content"])
        if prompt.startswith("Review this artifact"):
            artifact = prompt.split("Artifact:\n", 1)[-1]
            content = _APPROVE if artifact.startswith("revised") else _REVISE
        else:
            content = "revised" if "A reviewer judged" in prompt else "ok"
        if on_delta:
            on_delta(content)
        return LLMResponse(content, request.model, "bench", 3, 1)
