"""The Contracts dock over real runs: a row per contract (holds / broken, event, why), the summary, "go to
event" for a broken one, a live run told its contracts arrive at the end, and a run without contracts."""

from __future__ import annotations

import asyncio
from pathlib import Path

from example_runs import feed_live
from pytestqt.qtbot import QtBot

from engine.projection import project
from tests.engine.contracts.contract_runs import example, run_events, with_contracts
from widgets.contracts import ContractsPanel

BROKEN_AND_KEPT = ({"kind": "max_calls", "max_calls": 3}, {"kind": "reviewed_before_output"},
                   {"kind": "approve_score", "min_score": 0.99, "name": "Only near-perfect approvals"})


def test_each_contract_is_a_row_and_go_to_event_names_the_violation(qtbot: QtBot) -> None:
    events = asyncio.run(run_events(with_contracts(example("triad"), *BROKEN_AND_KEPT)))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(project(events))
    rows = [[panel.tree.topLevelItem(i).text(c) for c in range(4)] for i in range(panel.tree.topLevelItemCount())]
    assert [r[0] for r in rows] == ["broken", "holds", "broken"]
    assert rows[0][1] == "At most 3 model calls" and rows[0][2].isdigit() and "model call 4" in rows[0][3]
    assert rows[2][1] == "Only near-perfect approvals" and "below 0.99" in rows[2][3]
    assert panel.summary.text() == "2 of 3 contracts broken, 1 hold."
    assert panel.goto_button.isEnabled()  # the first broken one is selected
    with qtbot.waitSignal(panel.event_requested) as sent:
        panel.goto_button.click()
    assert sent.args == [int(rows[0][2])]
    panel.tree.setCurrentItem(panel.tree.topLevelItem(1))
    assert not panel.goto_button.isEnabled()  # a contract that holds has no event to go to


def test_a_live_run_shows_its_contracts_when_they_are_checked_at_its_end(qtbot: QtBot) -> None:
    events = asyncio.run(run_events(with_contracts(example("triad"), *BROKEN_AND_KEPT)))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    feed_live(panel, events[:50], 10)
    assert panel.tree.topLevelItemCount() == 0 and "going on" in panel.summary.text()
    projection = panel.projection
    assert projection is not None
    projection.apply_many(events[50:])
    panel.apply_changes(projection.take_changes())
    assert panel.tree.topLevelItemCount() == 3


def test_a_run_without_contracts_says_so(qtbot: QtBot) -> None:
    doc = example("triad")
    doc.pop("contracts")
    events = asyncio.run(run_events(doc))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(project(events))
    assert panel.tree.topLevelItemCount() == 0 and "no trace contracts" in panel.summary.text()
    panel.set_projection(None)
    assert panel.summary.text() == "No run selected."


def test_at_a_playback_moment_a_later_violation_is_not_shown_yet(qtbot: QtBot) -> None:
    events = asyncio.run(run_events(with_contracts(example("triad"), *BROKEN_AND_KEPT)))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(project(events))  # the window shows a selected run whole before playback moves
    end = {r.title: r.seq for r in panel.results}
    first, second = sorted(s for s in end.values() if s is not None)
    panel.clock_running = False

    def states(moment: int) -> list[str]:
        panel.set_projection(project(events, until_seq=moment))
        return [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]

    assert states(first - 1) == ["so far", "so far", "so far"]
    assert panel.summary.text() == (f"At event {first - 1}: all 3 contracts hold so far (whether they hold is "
                                    "checked at the run's end).")
    assert "checked at the run's end" in panel.tree.topLevelItem(0).text(3) and not panel.goto_button.isEnabled()
    broken_first = "broken" if end["At most 3 model calls"] == first else "so far"
    assert states(first)[0] == broken_first and panel.summary.text().startswith(f"At event {first}: 1 of 3")
    assert panel.goto_button.isEnabled() and panel.selected_seq() == first
    # playback steps forward: the cursor folds on and the panel re-reads the moment
    projection = panel.projection
    assert projection is not None
    projection.apply_many([e for e in events if first < e.seq <= second])
    panel.apply_changes(projection.take_changes())
    assert [panel.tree.topLevelItem(i).text(0) for i in range(3)] == ["broken", "so far", "broken"]
    panel.set_projection(project(events))  # back at the end: the run as checked
    assert panel.summary.text() == "2 of 3 contracts broken, 1 hold."


def test_a_moment_of_a_run_never_shown_whole_says_the_check_is_at_its_end(qtbot: QtBot) -> None:
    events = asyncio.run(run_events(with_contracts(example("triad"), *BROKEN_AND_KEPT)))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    panel.clock_running = False
    panel.set_projection(project(events, until_seq=20))
    assert panel.tree.topLevelItemCount() == 0
    assert panel.summary.text() == "At event 20: the contracts are checked at the run's end."


def test_a_sub_graph_s_contract_is_named_with_its_sub_graph(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.engine.replay.sub_graph_files import record_caller, write_sub_graph

    write_sub_graph(tmp_path, {"kind": "max_calls", "max_calls": 1, "nodes": ["executor"]})
    run, _ = asyncio.run(record_caller(None, tmp_path))
    panel = ContractsPanel()
    qtbot.addWidget(panel)
    panel.set_projection(project(list(run.hub.history)))
    row = panel.tree.topLevelItem(0)
    assert (row.text(0), row.text(1)) == ("broken", "sub-graph 'research': At most 1 model calls (executor)")
    assert row.text(3).startswith("in its execution 1: model call 2 (by 'research/executor')")
