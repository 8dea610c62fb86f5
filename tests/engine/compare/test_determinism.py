"""The determinism check: N live runs of one workflow, per node how often the output is the same and the
spread of tokens, cost and duration. The simulated provider is deterministic for a seed, so the same
seed is fully consistent and a seed varied per run is not."""

from __future__ import annotations

import pytest

from engine.compare.determinism import consistency, normalise, repeat
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.runtime import compile_workflow
from tests.engine.replay.replay_helpers import EXAMPLES


def _plans(name: str, seeds: list[int]) -> list[object]:
    plans = []
    for seed in seeds:
        wf = load_workflow(EXAMPLES / f"{name}.triadic.json")
        wf.settings.seed = seed
        plans.append(compile_workflow(wf, base_dir=EXAMPLES))
    return plans


@pytest.mark.asyncio
async def test_the_same_seed_is_fully_consistent() -> None:
    projections = await repeat(_plans("triad", [7, 7, 7]), gateway=SimGateway())  # type: ignore[arg-type]
    rows = {row.node_id: row for row in consistency(projections)}
    assert all(row.exact == row.normalised == 3 and row.distinct == 1 for row in rows.values())
    assert rows["planner"].tokens.low == rows["planner"].tokens.high > 0


@pytest.mark.asyncio
async def test_a_seed_varied_per_run_shows_in_the_figures() -> None:
    projections = await repeat(_plans("triad", [1, 2, 3]), gateway=SimGateway())  # type: ignore[arg-type]
    rows = {row.node_id: row for row in consistency(projections)}
    assert rows["goal"].exact_share == 1.0
    assert rows["planner"].exact < 3 and rows["planner"].distinct > 1
    assert rows["planner"].tokens.low < rows["planner"].tokens.high
    assert rows["executor"].duration_s.high >= rows["executor"].duration_s.low


def test_normalisation_ignores_whitespace_and_json_layout() -> None:
    assert normalise('{"b": 1,  "a": [1, 2]}') == normalise('{"a":[1,2],"b":1}')
    assert normalise("a  b\n c") == normalise("a b c") and normalise("a b") != normalise("ab")
