"""Start-up stays light: importing the main window loads no pyqtgraph, numpy, litellm or SQLAlchemy;
the Timeline and Cost & tokens docks are there (same title, place, toggle) but build their panels
when first shown, and a panel built late is fed the selected run and follows it like any other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle, shown_panel, until

from app.lazy_dock import LazyDockPanel
from app.run_docks import RunDockSpec, mount_run_docks

HEAVY = ("pyqtgraph", "numpy", "litellm", "sqlalchemy", "sqlmodel")


def test_importing_the_main_window_loads_nothing_heavy() -> None:
    probe = ("import json, sys\nfrom app.main_window import MainWindow\nimport app.gui\n"
             "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert not sorted(m for m in loaded if m.split(".")[0] in HEAVY)


def test_a_lazy_dock_builds_its_panel_on_first_show_and_shows_the_selected_run(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    timeline, cost = window.docks["timeline"], window.docks["cost"]
    assert timeline.windowTitle() == "Timeline" and cost.windowTitle() == "Cost && tokens"
    assert timeline in window.tabifiedDockWidgets(window.docks["trace"])
    assert isinstance(timeline.widget(), LazyDockPanel) and isinstance(cost.widget(), LazyDockPanel)
    assert "timeline" not in window.runs.views.panels and "cost" not in window.runs.views.panels

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        timeline.raise_()  # the person clicks the Timeline tab
        await settle(0.2)
        return run_id

    run_id = drive(gui_loop, scenario())
    panel = window.runs.views.panels["timeline"]
    assert timeline.widget() is panel and type(panel).__name__ == "TimelinePanel"
    assert panel.projection is window.runs.runs[run_id].projection  # fed the selected run when mounted
    assert "cost" not in window.runs.views.panels  # still a hidden tab: still not built
    window.view.select_nodes(["executor"])
    assert panel.node_filter == "executor"  # and it follows the canvas like any panel
    cost.raise_()  # its tab clicked
    qtbot.waitUntil(lambda: "cost" in window.runs.views.panels, timeout=5000)
    cost_panel = window.runs.views.panels["cost"]
    assert cost.widget() is cost_panel and cost_panel.projection is window.runs.runs[run_id].projection


def test_a_lazy_panel_that_cannot_be_built_says_why_in_its_dock(qtbot: QtBot, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, None)
    said: list[str] = []
    window.runs.status_message.connect(said.append)

    def boom() -> QLabel:
        raise RuntimeError("no pyqtgraph here")

    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    docks, _actions = mount_run_docks(window, window.runs, [RunDockSpec("broken", "Broken", bottom, boom, lazy=True)])
    stand_in = docks["broken"].widget()
    assert isinstance(stand_in, LazyDockPanel)
    docks["broken"].show()
    docks["broken"].raise_()
    qtbot.waitUntil(lambda: bool(said), timeout=5000)
    QApplication.processEvents()
    assert said == ["The Broken panel could not be built: no pyqtgraph here"]
    assert docks["broken"].widget() is stand_in
    assert stand_in.findChild(QLabel).text() == said[0]


def test_hidden_tabs_build_their_panels_late_with_the_store_the_links_and_the_moment_shown(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    """Verdicts, Memory and Contracts start as hidden tabs: their docks are there, their panels are built
    when first shown — the Memory panel then gets the store already open, the Contracts panel its link to
    the Events dock, and a panel built during playback shows the moment the other docks show."""
    window = run_window(qtbot, tmp_path, "triad")
    for name, title in (("verdicts", "Verdicts"), ("memory", "Memory"), ("contracts", "Contracts")):
        dock = window.docks[name]
        assert dock.windowTitle() == title and isinstance(dock.widget(), LazyDockPanel)
        assert dock in window.tabifiedDockWidgets(window.docks["call"])
        assert name not in window.runs.views.panels
        assert window.actions_by_name[f"toggle_{name}"].isChecked()
    playback = window.runs.playback

    async def scenario() -> tuple[str, int]:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        moment = len(window.runs.runs[run_id].projection.events) // 2
        playback.seek(moment)
        await until(lambda: window.runs.views.panels["trace"].projection is playback.cursor)
        return run_id, moment

    run_id, moment = drive(gui_loop, scenario())
    memory = shown_panel(window, "memory")
    assert memory.value.store is not None and memory.value.store is window.runs.opened_store
    verdicts = shown_panel(window, "verdicts")
    assert verdicts.projection is playback.cursor  # the moment shown, not the whole run
    assert window.runs.views.panels["verdicts"] is verdicts
    contracts = shown_panel(window, "contracts")
    assert contracts.projection is playback.cursor and contracts.moment == moment
    shown_at: list[int] = []
    window.runs.views.panel_raise_requested.connect(lambda name: shown_at.append(name))
    first = window.runs.runs[run_id].projection.events[1].seq
    contracts.event_requested.emit(first)  # "Go to event": the link was wired when the panel was built
    assert shown_at == ["events"]


def test_the_timeline_in_front_waits_for_a_run_before_loading_the_plots(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    """A saved layout may put the Timeline in front at start-up: with no run to show it says how to get
    one and builds nothing (no plotting libraries in a window that is only designing); once a run is
    selected while it is in front, its panel is built and shows that run."""
    window = run_window(qtbot, tmp_path, "triad")
    timeline = window.docks["timeline"]
    stand_in = timeline.widget()
    assert isinstance(stand_in, LazyDockPanel)

    async def scenario() -> str:
        timeline.raise_()  # in front, no run yet
        await settle(0.2)
        assert "timeline" not in window.runs.views.panels and timeline.widget() is stand_in
        assert stand_in.waiting is not None and stand_in.waiting.isVisible()
        assert "F5" in stand_in.waiting.text() and "past run" in stand_in.waiting.text()
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await until(lambda: "timeline" in window.runs.views.panels)
        await window.runs.runs[run_id].task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    panel = window.runs.views.panels["timeline"]
    assert timeline.widget() is panel and panel.projection is window.runs.runs[run_id].projection
    assert "cost" not in window.runs.views.panels  # a hidden tab: not built by a run either
