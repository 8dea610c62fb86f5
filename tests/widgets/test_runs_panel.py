"""Runs dock: the store's runs newest first with figures and verdict summaries, loaded off the GUI
thread; filters; open; delete with confirmation (never a live run); a store that cannot be opened."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from qt_loop import qt_loop_fixture, until

from engine import events as ev
from engine.store import TraceStore
from tests.engine.store.store_samples import Stream, triad_run, write_all
from widgets.runs import RunsPanel

_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)


def _judged(run_id: str, status: str | None, decisions: list[str], **started: Any) -> list[ev.Event]:
    s = Stream(run_id)
    root = f"{run_id}/run"
    s.add(ev.RunStarted, span_id=root, workflow_id="wf-review", workflow_name="Review loop", workflow_hash="h" * 64,
          **started)
    for index, decision in enumerate(decisions):
        s.add(ev.VerdictIssued, span_id=f"{root}/c", parent_id=root, node_id="critic", subject_node_id="exec",
              decision=decision, score=0.5, reasons=[], claims=[], round=index + 1)
    if status is not None:
        s.add(ev.RunFinished, span_id=root, status=status, reason="critic kept rejecting" if status == "failed" else "",
              tokens_in=1200, tokens_out=300, cost_usd=0.0123, duration_s=75.0)
    return s.events


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "trace.db"
    with TraceStore(path) as store:
        write_all(store, triad_run("aaaa1111"))
        write_all(store, _judged("bbbb2222", "failed", ["revise", "revise", "approve"]))
        write_all(store, _judged("cccc3333", None, []))  # never finished
        write_all(store, _judged("dddd4444", "succeeded", ["approve"], replay_of="aaaa1111"))
    return path


def _panel(qtbot: QtBot, source: Any) -> RunsPanel:
    panel = RunsPanel(source)
    qtbot.addWidget(panel)
    panel.resize(1000, 400)
    return panel


def _ids(panel: RunsPanel) -> list[str]:
    """The runs shown, in display order (depth first: a replay or fork right under its source)."""
    return [item.run_id for item in panel.model.listings]


def _matched(panel: RunsPanel) -> list[str]:
    return [panel.model.listings_all[i].run_id for i in panel.model.tree.matched]


def _row(panel: RunsPanel, run_id: str) -> list[str]:
    index = panel.model.index_of(run_id)
    return [index.siblingAtColumn(c).data() for c in range(panel.model.columnCount())]


def test_lists_runs_newest_first_with_figures_loaded_off_the_gui_thread(qtbot: QtBot, qt_loop: Any,
                                                                          store_path: Path) -> None:
    threads: list[str] = []

    def source() -> TraceStore:
        threads.append(threading.current_thread().name)
        return TraceStore(store_path)

    async def scenario() -> RunsPanel:
        panel = _panel(qtbot, source)
        await until(lambda: len(_ids(panel)) == 4, what="the runs listed")
        return panel

    panel = qt_loop.run_until_complete(scenario())
    assert threads and threads[0] != threading.main_thread().name
    assert _ids(panel) == ["cccc3333", "bbbb2222", "aaaa1111", "dddd4444"]  # the replay under its source
    assert panel.model.source_of("dddd4444") == "aaaa1111"
    assert _row(panel, "dddd4444")[0] == "└ Review loop"
    failed = _row(panel, "bbbb2222")
    assert failed[:2] == ["Review loop", "failed"]
    assert failed[3:7] == ["1 min 15 s", "1 500", "$0.0123", "2 revise · 1 approve"]
    assert _row(panel, "cccc3333")[1:4:2] == ["interrupted", "14 ms"]  # its writer is gone: the store says so
    assert _row(panel, "dddd4444")[7] == "dddd4444  (replay of aaaa1111)"
    assert _row(panel, "aaaa1111")[6] == "1 approve"
    assert panel.message.text() == "4 runs"
    panel.close_store()


def test_filters_by_text_and_status(qtbot: QtBot, qt_loop: Any, store_path: Path) -> None:
    async def scenario() -> RunsPanel:
        panel = _panel(qtbot, store_path)
        await until(lambda: len(_ids(panel)) == 4)
        return panel

    panel = qt_loop.run_until_complete(scenario())
    qtbot.keyClicks(panel.filter_edit, "review")
    assert sorted(_matched(panel)) == ["bbbb2222", "cccc3333", "dddd4444"]
    assert _ids(panel) == ["cccc3333", "bbbb2222", "aaaa1111", "dddd4444"]  # the replay's source stays, dimmed
    assert panel.model.index_of("aaaa1111").data(Qt.ItemDataRole.ForegroundRole) is not None
    panel.filter_edit.setText("AAAA")
    assert _ids(panel) == ["aaaa1111"]
    panel.filter_edit.clear()
    assert panel.status_combo.findText("failed") > 0
    panel.status_combo.setCurrentText("succeeded")
    assert sorted(_ids(panel)) == ["aaaa1111", "dddd4444"]
    panel.close_store()


def test_open_and_delete_with_confirmation_but_never_a_live_run(qtbot: QtBot, qt_loop: Any, store_path: Path) -> None:
    async def scenario() -> tuple[RunsPanel, list[str], list[str]]:
        panel = _panel(qtbot, store_path)
        await until(lambda: len(_ids(panel)) == 4)
        opened: list[str] = []
        deleted: list[str] = []
        panel.open_requested.connect(opened.append)
        panel.run_deleted.connect(deleted.append)
        panel.set_live_runs({"cccc3333"})
        panel.select_run("cccc3333")
        assert not panel.delete_button.isEnabled() and "live" in panel.delete_button.toolTip()
        assert _row(panel, "cccc3333")[1].endswith(" · live")
        panel.view.activated.emit(panel.model.index_of("bbbb2222"))
        panel.select_run("bbbb2222")
        panel.open_button.click()
        panel.delete_button.click()
        box = panel.findChild(QMessageBox)
        assert box is not None and box.isVisible() and "bbbb2222"[:8] in box.text()
        box.button(QMessageBox.StandardButton.Cancel).click()
        await until(lambda: panel._confirm is None)
        assert len(_ids(panel)) == 4  # cancelled: nothing deleted
        panel.delete_button.click()
        box = panel._confirm
        assert box is not None
        box.button(QMessageBox.StandardButton.Yes).click()
        await until(lambda: len(_ids(panel)) == 3, what="the list reloaded after the delete")
        return panel, opened, deleted

    panel, opened, deleted = qt_loop.run_until_complete(scenario())
    assert opened == ["bbbb2222", "bbbb2222"] and deleted == ["bbbb2222"]
    panel.close_store()
    with TraceStore(store_path) as store:
        assert store.get_run("bbbb2222") is None and store.get_run("cccc3333") is not None


def test_a_store_that_cannot_be_opened_says_why(qtbot: QtBot, qt_loop: Any, tmp_path: Path) -> None:
    bad = tmp_path / "not-a-db.db"
    bad.write_bytes(b"this is not an SQLite database at all" * 100)

    async def scenario() -> RunsPanel:
        panel = _panel(qtbot, bad)
        loaded: list[int] = []
        panel.runs_loaded.connect(loaded.append)
        await until(lambda: loaded, what="the failed load")
        return panel

    panel = qt_loop.run_until_complete(scenario())
    assert panel.model.rowCount() == 0 and panel.error
    assert panel.message.text().startswith("The trace store cannot be opened or read:")
    assert "not-a-db.db" in panel.message.text() and "Traceback" not in panel.message.text()


def test_refresh_picks_up_a_new_run(qtbot: QtBot, qt_loop: Any, store_path: Path) -> None:
    async def scenario() -> RunsPanel:
        panel = _panel(qtbot, store_path)
        await until(lambda: len(_ids(panel)) == 4)
        with TraceStore(store_path) as store:
            write_all(store, _judged("eeee5555", "cancelled", []))
        panel.refresh()
        panel.refresh()  # asked again while loading: one more load after this one
        await until(lambda: len(_ids(panel)) == 5)
        return panel

    panel = qt_loop.run_until_complete(scenario())
    assert _ids(panel)[0] == "eeee5555"
    panel.close_store()


def test_a_panel_closed_while_loading_is_left_alone(qt_loop: Any, store_path: Path) -> None:
    import shiboken6

    errors: list[dict[str, Any]] = []
    qt_loop.set_exception_handler(lambda _loop, context: errors.append(context))

    async def scenario() -> None:
        panel = RunsPanel(store_path)
        task = panel._loading
        shiboken6.delete(panel)  # the dock closed and deleted before the store answered
        assert task is not None
        await asyncio.wait_for(task, 10)

    qt_loop.run_until_complete(scenario())
    assert errors == []


def test_sorting_by_a_header_sorts_numbers_as_numbers_and_keeps_the_selection(qtbot: QtBot, qt_loop: Any,
                                                                               store_path: Path) -> None:
    async def scenario() -> RunsPanel:
        panel = _panel(qtbot, store_path)
        await until(lambda: len(_ids(panel)) == 4)
        return panel

    panel = qt_loop.run_until_complete(scenario())
    panel.select_run("bbbb2222")
    panel.view.sortByColumn(4, Qt.SortOrder.AscendingOrder)  # tokens
    roots = [panel.model.listing(r) for r in range(panel.model.rowCount()) if panel.model.depth(r) == 0]
    tokens = [item.tokens for item in roots if item is not None]
    assert tokens == sorted(tokens) and tokens[-1] == 1500
    assert panel.selected_run() == "bbbb2222"
    panel.model.set_filter(text="review")
    assert panel.selected_run() == "bbbb2222" and len(_matched(panel)) == 3
    panel.model.set_filter(text="aaaa")
    assert panel.selected_run() is None and not panel.open_button.isEnabled()
    panel.close_store()
