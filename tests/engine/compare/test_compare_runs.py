"""Comparing two runs: a run with itself and with its replay is the same; a fork names its first
difference (the edited node's request), its output diff, verdict changes and deltas."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.compare import compare, lanes
from engine.compare.diff import where_differs
from engine.llm.sim import SimGateway
from engine.projection import RunProjection, project
from engine.replay import load_source, prepare_fork, start_replay
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES, NoProvider, record, replay


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TraceStore]:
    with TraceStore(tmp_path / "t.db") as opened:
        yield opened


def _projected(store: TraceStore, run_id: str) -> RunProjection:
    return project(store.iter_events(run_id))


@pytest.mark.asyncio
async def test_a_run_is_the_same_as_itself_and_as_its_replay(store: TraceStore) -> None:
    source = await record(store, "triad")
    _, replayed = await replay(store, source.run_id, live=NoProvider())
    a, b = _projected(store, source.run_id), _projected(store, replayed.run_id)
    assert compare(a, a).same
    diff = compare(a, b)
    assert diff.same and diff.first_divergence is None and not diff.output_diffs and not diff.verdicts
    assert diff.totals.tokens == 0 and diff.totals.cost_usd == 0


@pytest.mark.asyncio
async def test_a_fork_names_its_first_difference(store: TraceStore) -> None:
    source = await record(store, "triad")
    setup, point = prepare_fork(store, load_source(store, source.run_id), "executor", live=SimGateway(),
                                prompt="Short: {task}", base_dir=EXAMPLES)
    forked = await start_replay(setup, store).wait()
    a, b = _projected(store, source.run_id), _projected(store, forked.run_id)
    diff = compare(a, b)
    assert not diff.same
    first = diff.first_divergence
    assert first is not None and first.lane.startswith("llm executor|")
    assert first.seq_a is not None and first.seq_a > point.seq
    assert "request.messages[0].content" in first.detail and "Short: " in first.detail
    assert "executor" in diff.output_diffs and "planner" not in diff.output_diffs
    assert any(line.startswith("+") for line in diff.output_diffs["executor"])
    assert diff.verdicts and diff.verdicts[0].judge == "critic"
    assert {d.node_id for d in diff.deltas} >= {"planner", "executor", "critic"}
    assert next(d for d in diff.deltas if d.node_id == "planner").tokens == 0


def test_lanes_ignore_ids_and_timings_and_where_differs_names_the_path() -> None:
    assert where_differs({"a": [1, {"b": "xyz"}]}, {"a": [1, {"b": "xqz"}]}) == "a[1].b at character 1: 'yz' → 'qz'"
    assert where_differs({"n": 1}, {"n": 2}) == "n: 1 → 2"
    assert lanes([]) == {}
