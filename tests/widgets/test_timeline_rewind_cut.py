"""The Timeline's columns of a run at an earlier moment, cut from the whole run's (`rewind_cut.arrays_at`), equal
a fresh build of `project(events, until_seq=seq)` in every column, lane, sub-row, mark, wait and hold, and a
Timeline given its cut draws what a fresh Timeline of that moment draws, pixel for pixel."""

from __future__ import annotations

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.projection import project
from tests.perf.synthetic_run import synthetic_run
from tests.widgets.parallel_run import parallel_run
from tests.widgets.stored_example_runs import stored_run
from tests.widgets.test_playback_reshow import _picture, _shown
from widgets.timeline import TimelinePanel, gantt_item
from widgets.timeline.rewind_cut import arrays_at
from widgets.timeline.span_arrays import COLUMNS, SpanArrays


def _events(name: str) -> list[ev.Event]:
    if name == "parallel":
        return parallel_run()
    return synthetic_run("rewind", executions=240, lanes=12) if name == "synthetic" else stored_run(name).events


def assert_same(cut: SpanArrays, fresh: SpanArrays) -> None:
    n = fresh.count
    assert cut.count == n
    for name in COLUMNS:
        np.testing.assert_array_equal(getattr(cut, name)[:n], getattr(fresh, name)[:n], err_msg=name)
    for name in ("span_ids", "names", "row_of", "lane_ids", "lane_labels", "lane_of", "lane_slots", "_slot_rows",
                 "marks", "_attempts", "_open_waits", "_events_seen", "scanned"):
        assert getattr(cut, name) == getattr(fresh, name), name
    np.testing.assert_array_equal(np.array(cut.waits, dtype=float).reshape(-1, 3),
                                  np.array(fresh.waits, dtype=float).reshape(-1, 3))
    np.testing.assert_array_equal(np.array(cut.holds, dtype=float).reshape(-1, 2),
                                  np.array(fresh.holds, dtype=float).reshape(-1, 2))


@pytest.mark.parametrize(("run", "whole_at"), [("synthetic", None), ("parallel", None), ("parallel", 0.7),
                                              ("research", None), ("code_fix", None), ("hanoi", None), ("hanoi", 0.6)])
def test_cut_equals_a_fresh_build_at_every_moment(run: str, whole_at: float | None) -> None:
    """Cut from the finished run, or from the run built at a later moment (`whole_at` of it: a dock first shown
    during playback, spans still open and lanes still to come)."""
    events = _events(run)
    upto = None if whole_at is None else int(events[-1].seq * whole_at)
    whole = SpanArrays.of(project(events, until_seq=upto))
    seqs = [e.seq for e in events if upto is None or e.seq < upto]
    step = max(1, len(seqs) // 150)
    cut_at = 0
    for seq in [*seqs[::step], *seqs[-5:]]:
        moment = project(events, until_seq=seq)
        cut = arrays_at(whole, moment)
        fresh = SpanArrays.of(moment)
        if cut is not None:
            cut_at += 1
            assert_same(cut, fresh)
    assert cut_at >= len(seqs[::step]) * 0.9  # the cut answers at nearly every moment, not only the easy ones


@pytest.mark.parametrize("run", ["synthetic", "parallel"])
def test_a_cut_grows_on_as_a_fresh_build_does(run: str) -> None:
    """Playback folds forward from a moment shown: the cut's columns take the next events as a fresh build's do."""
    events = _events(run)
    whole = SpanArrays.of(project(events))
    for seq in (events[-1].seq // 3, events[-1].seq // 2):
        moment = project(events, until_seq=seq)
        cut, fresh = arrays_at(whole, moment), SpanArrays.of(moment)
        assert cut is not None
        moment.apply_many([e for e in events if seq < e.seq <= seq + 60])
        changes = moment.take_changes()
        for arrays in (cut, fresh):
            arrays.sync_lanes(moment)
            arrays.add(moment, changes.spans_added)
            arrays.refresh(moment, changes.spans_changed)
            arrays.scan_events(moment)
        assert_same(cut, fresh)


def _fed(events: list[ev.Event], batch: int = 37) -> SpanArrays:
    """Columns fed a live run's changes as the Timeline is fed them (a flush at a time)."""
    live = project(events[:1])
    arrays = SpanArrays.of(live)
    for i in range(1, len(events), batch):
        live.apply_many(events[i:i + batch])
        changes = live.take_changes()
        arrays.sync_lanes(live)
        arrays.add(live, changes.spans_added)
        arrays.refresh(live, changes.spans_changed)
        arrays.scan_events(live)
    return arrays


@pytest.mark.parametrize("run", ["synthetic", "parallel", "hanoi"])
def test_cut_from_columns_fed_as_the_run_went_equals_a_fresh_build(run: str) -> None:
    """A run watched live, then scrubbed back: its calls were placed while open, so every lane is placed again."""
    events = _events(run)
    whole = _fed(events)
    assert not whole.built_whole
    last = events[-1].seq
    for seq in (last - 1, last * 4 // 5, last // 2 + 3, last // 3, last // 7, 3):
        moment = project(events, until_seq=seq)
        cut = arrays_at(whole, moment)
        assert cut is not None
        assert_same(cut, SpanArrays.of(moment))


@pytest.mark.parametrize(("run", "coverage"), [("parallel", True), ("parallel", False), ("research", True),
                                                ("hanoi", False)])
def test_timeline_given_its_cut_draws_what_a_fresh_timeline_of_that_moment_draws(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, run: str, coverage: bool) -> None:
    """As playback shows a moment on the GUI thread: the Timeline's `prepare_here`, then the moment."""
    if coverage:
        monkeypatch.setattr(gantt_item, "SYNC_RECTS", 0)
        monkeypatch.setattr(gantt_item, "COVERAGE_ABOVE", 0)
    events = _events(run)
    scrubbed = TimelinePanel()
    _shown(qtbot, scrubbed, project(events), moment=False)
    assert scrubbed.prepares_here()
    frame = scrubbed.view_box.viewRange()
    last = events[-1].seq
    for seq in (last - 1, last * 4 // 5, last // 2 + 3, last // 3, last // 7, 3):
        at = project(events, until_seq=seq)
        cut = scrubbed.prepare_here(at)
        assert isinstance(cut, SpanArrays)
        scrubbed.use_prepared(cut)
        scrubbed.clock_running = False
        scrubbed.set_projection(at)
        assert scrubbed.arrays is cut
        fresh = TimelinePanel()
        _shown(qtbot, fresh, project(events, until_seq=seq), moment=True, prepared=False)
        shown = scrubbed.view_box.viewRange()
        assert shown[0] == frame[0]  # the run's time axis stays (the lanes are those known by then)
        fresh.view_box.setRange(xRange=shown[0], yRange=shown[1], padding=0)
        assert _picture(scrubbed) == _picture(fresh), seq
        fresh.close()


def test_timeline_cuts_only_its_own_run_at_an_earlier_moment(qtbot: QtBot) -> None:
    events = _events("parallel")
    panel = TimelinePanel()
    _shown(qtbot, panel, project(events), moment=False)
    assert panel.prepare_here(project(events)) is None  # the whole run: nothing earlier to cut
    assert panel.prepare_here(project(synthetic_run("other", executions=20, lanes=3), until_seq=30)) is None
