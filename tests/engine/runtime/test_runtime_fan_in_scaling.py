"""A wide fan-in is delivered in time linear in its edges: each value finds its edge's place in the
target's inputs by a lookup, not by comparing it with every edge before it (a 1,000-way fan-in cost
~300 µs a node that way)."""

from __future__ import annotations

import pytest

from engine.graph.shapes import fan, shape_workflow
from engine.runtime import Run, compile_workflow
from engine.runtime.plan import PlanEdge
from tests.perf.shape_model import ShapeModel


async def _edge_comparisons(width: int, monkeypatch: pytest.MonkeyPatch) -> int:
    plan = compile_workflow(shape_workflow(fan(width)))
    compared = 0
    equal = PlanEdge.__eq__

    def counting(self: PlanEdge, other: object) -> bool:
        nonlocal compared
        compared += 1
        return equal(self, other)  # type: ignore[no-any-return]

    monkeypatch.setattr(PlanEdge, "__eq__", counting)
    result = await Run(plan, gateway=ShapeModel()).wait()
    assert result.status == "succeeded", result.reason
    return compared


@pytest.mark.asyncio
async def test_a_wide_fan_in_is_merged_without_comparing_every_edge_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = await _edge_comparisons(100, monkeypatch), await _edge_comparisons(400, monkeypatch)
    assert large <= 4.4 * max(small, 100), (small, large)  # linear (n²: ~16x, and ~80,000 comparisons)
