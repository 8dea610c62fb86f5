"""The Deadline gauge and the Timeline read one clock: at a playback moment both show the moment's time
(not the last `BudgetUpdated`'s, said only after a model call), the time the run held said under the
gauge's counted time; live, both follow the clock between events."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import RunProjection, project
from tests.widgets.run_clock_fixtures import shown
from widgets.cost import CostPanel
from widgets.timeline import TimelinePanel


def _run(*, held: bool = False) -> list[ev.Event]:
    """A model call that ends at 27.1 s (its `BudgetUpdated` then), and a node still working at 28.6 s."""
    r = "r"
    events: list[ev.Event] = [
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h",
                      settings={"budget": {"deadline_s": 60.0}}),
        ev.RunPlanned(run_id=r, seq=2, ts=0.0, nodes=[["a", "Alpha", "executor"]]),
        ev.NodeStateChanged(run_id=r, seq=3, ts=0.5, span_id="a#1", parent_id="run", node_id="a", state="running"),
    ]
    if held:
        events += [ev.RunPaused(run_id=r, seq=4, ts=10.0, span_id="run", reason="user"),
                   ev.RunResumed(run_id=r, seq=5, ts=12.0, span_id="run", mode="resume")]
    seq = len(events) + 1
    counted = 27.1 - (2.0 if held else 0.0)
    events += [
        ev.LLMCallFinished(run_id=r, seq=seq, ts=27.1, span_id="a#1>llm1", parent_id="a#1", node_id="a", model="m"),
        ev.BudgetUpdated(run_id=r, seq=seq + 1, ts=27.1, span_id="a#1", tokens=0, cost_usd=0.0, elapsed_s=counted),
        ev.LogMessage(run_id=r, seq=seq + 2, ts=28.6, node_id="a", message="still working"),
    ]
    return events


def _docks(qtbot: QtBot, projection: RunProjection, *, live: bool) -> tuple[CostPanel, TimelinePanel]:
    return shown(qtbot, projection, CostPanel(), live=live), shown(qtbot, projection, TimelinePanel(), live=live)


def test_at_a_playback_moment_the_gauge_reads_the_timelines_time(qtbot: QtBot) -> None:
    events = _run()
    cost, timeline = _docks(qtbot, project(events), live=False)
    gauge = cost.gauges["deadline_s"]
    assert timeline.run_time() == gauge.used == 28.6  # was 27.1: the last BudgetUpdated's
    assert "28.60 s" in timeline.summary.text() and gauge.text.startswith("28.6 s / 60 s")
    earlier = project(events, until_seq=events[-2].seq)  # the moment of the budget update itself
    for panel in (cost, timeline):
        panel.set_projection(earlier)
    assert timeline.run_time() == gauge.used == 27.1


def test_the_time_the_run_held_is_said_beside_the_counted_time(qtbot: QtBot) -> None:
    cost, timeline = _docks(qtbot, project(_run(held=True)), live=False)
    gauge = cost.gauges["deadline_s"]
    assert timeline.run_time() == 28.6 and gauge.used == pytest.approx(26.6)
    assert gauge.text.startswith("26.6 s / 60 s") and gauge.note == "+ 2.0 s held = 28.6 s"
    assert gauge.note in gauge.toolTip()


def test_live_both_follow_the_clock_between_events(qtbot: QtBot) -> None:
    cost, timeline = _docks(qtbot, project(_run()), live=True)
    gauge = cost.gauges["deadline_s"]
    assert cost.clock_timer.isActive()
    qtbot.wait(350)  # no event comes: the run's time still goes on
    assert gauge.used > 28.8 and gauge.used == pytest.approx(timeline.run_time(), abs=0.15)
    finished = project([*_run(), ev.RunFinished(run_id="r", seq=9, ts=29.0, status="succeeded", duration_s=29.0)])
    for panel in (cost, timeline):
        panel.set_projection(finished)
    assert not cost.clock_timer.isActive() and timeline.run_time() == gauge.used == 29.0
