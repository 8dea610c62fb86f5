"""Playback's checkpoints: a copy of a projection folds on by itself, and the run at any seq read from the
checkpoints equals `project(events, until_seq=seq)`."""

from __future__ import annotations

import pytest

from engine.projection import RunProjection, project
from engine.projection.checkpoints import ProjectionCheckpoints
from engine.projection.clone import KNOWN_ATTRIBUTES, clone_projection
from tests.engine.projection.projection_state import projection_state
from tests.perf.synthetic_run import synthetic_run
from tests.widgets.stored_example_runs import NAMES, stored_run

EVENTS = synthetic_run("cp", executions=300, lanes=7)


def test_every_attribute_of_a_projection_is_known_to_the_copy() -> None:
    assert set(vars(RunProjection())) == KNOWN_ATTRIBUTES


def test_a_copy_folds_on_without_touching_the_original() -> None:
    half = len(EVENTS) // 2
    original = project(EVENTS, until_seq=half)
    before = projection_state(original)
    copy = clone_projection(original)
    copy.apply_many(EVENTS[half:])
    assert projection_state(original) == before
    assert projection_state(copy) == projection_state(project(EVENTS))


def test_the_run_at_any_seq_equals_a_fresh_projection() -> None:
    checkpoints = ProjectionCheckpoints(every=500)
    checkpoints.extend(EVENTS)
    assert len(checkpoints) > 5
    for seq in (0, 1, 2, 499, 500, 501, 1777, 3000, len(EVENTS) - 1, len(EVENTS)):
        assert projection_state(checkpoints.at(EVENTS, seq)) == projection_state(project(EVENTS, until_seq=seq)), seq


def test_a_growing_run_keeps_its_checkpoints_bounded() -> None:
    checkpoints = ProjectionCheckpoints(every=100, max_checkpoints=8)
    for end in range(0, len(EVENTS) + 1, 700):  # a live run: extended as its events arrive
        checkpoints.extend(EVENTS[:end])
    checkpoints.extend(EVENTS)
    assert len(checkpoints) <= 8
    assert checkpoints.every > 100
    seq = len(EVENTS) - 123
    assert projection_state(checkpoints.at(EVENTS, seq)) == projection_state(project(EVENTS, until_seq=seq))


@pytest.mark.parametrize("name", NAMES)
def test_every_example_run_at_every_checkpoint_seq_equals_a_fresh_projection(name: str) -> None:
    """Rows the copies share (finished calls, done executions) are never written again by the fold: the
    builder folds on past each checkpoint, and each moment read back still equals a fresh projection."""
    events = stored_run(name).events
    checkpoints = ProjectionCheckpoints(every=7)
    checkpoints.extend(events)
    for seq in range(0, events[-1].seq + 1, 3):
        assert projection_state(checkpoints.at(events, seq)) == projection_state(project(events, until_seq=seq)), seq
