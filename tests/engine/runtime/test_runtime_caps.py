"""Concurrency caps as measured on calls that take time: the run's `concurrency` holds across every
node's calls, and a Map's own `concurrency` holds for its items while other nodes' calls go on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.graph.model import Workflow
from engine.llm.types import LLMRequest, LLMResponse
from engine.runtime import execute
from tests.engine.runtime.fakes import FakeGateway, build

ITEMS = [f"item {i}" for i in range(12)]


class PeakByRole(FakeGateway):
    """Also counts the most calls of one role in flight at once."""

    def __init__(self, role: str) -> None:
        super().__init__(latency_s=0.02)
        self.role, self.role_active, self.role_peak = role, 0, 0

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        mine = request.metadata.get("role") == self.role
        self.role_active += mine
        self.role_peak = max(self.role_peak, self.role_active)
        try:
            return await super().complete(request, on_delta)
        finally:
            self.role_active -= mine


def map_beside_executors(run_cap: int, map_cap: int) -> Workflow:
    nodes: list[tuple[str, str, dict[str, Any]]] = [
        ("in", "input", {"name": "items"}), ("m", "map", {"concurrency": map_cap}),
        ("out", "output", {"name": "result"})]
    edges = ["in.value->m.items", "m.results->out.value"]
    for i in range(4):
        nodes += [(f"x{i}", "executor", {}), (f"o{i}", "output", {"name": f"o{i}"})]
        edges += [f"in.value->x{i}.task", f"x{i}.result->o{i}.value"]
    return build(nodes, edges, concurrency=run_cap)


@pytest.mark.asyncio
@pytest.mark.parametrize(("run_cap", "map_cap", "map_peak", "peak"), [(16, 2, 2, 6), (3, 10, 3, 3), (1, 4, 1, 1)])
async def test_a_maps_cap_and_the_runs_cap_both_hold(run_cap: int, map_cap: int, map_peak: int, peak: int) -> None:
    gateway = PeakByRole("map")
    result = await execute(map_beside_executors(run_cap, map_cap), gateway=gateway, inputs={"items": ITEMS})
    assert result.status == "succeeded" and len(result.outputs["result"]) == len(ITEMS)
    assert (gateway.role_peak, gateway.peak) == (map_peak, peak)
