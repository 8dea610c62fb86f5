"""Runs dock as a lineage tree: replays and forks under their source with the fork point (node,
execution, seq), nested lineages, a filter that keeps a match's sources, a damaged store's loop of
sources still listed, the context menu's re-run, and Prune… / Compact with the store's size."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot
from qt_loop import qt_loop_fixture, until

from engine import events as ev
from engine.store import RunSummary, TraceStore
from tests.engine.store.store_samples import triad_run, write_all
from widgets.runs import RunsPanel
from widgets.runs.run_rows import RunListing
from widgets.runs.run_tree import RunTree
from widgets.runs.runs_model import RUN_ID_ROLE

_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)


def _run(run_id: str, **lineage: object) -> list[ev.Event]:
    events = triad_run(run_id)
    events[0] = dataclasses.replace(events[0], **lineage)  # type: ignore[arg-type]
    return events


def _exec_b_start(events: list[ev.Event]) -> int:
    return next(e.seq for e in events if isinstance(e, ev.NodeStateChanged) and e.node_id == "exec_b"
                and e.state == "running")


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    path = tmp_path / "trace.db"
    source = triad_run("src11111")
    with TraceStore(path) as store:
        write_all(store, source)
        write_all(store, _run("rep22222", replay_of="src11111"))
        write_all(store, _run("frk33333", fork_of="src11111", fork_at_seq=_exec_b_start(source)))
        write_all(store, _run("rep44444", replay_of="frk33333"))
        write_all(store, triad_run("alone555"))
    return path


def _shown(qtbot: QtBot, qt_loop: Any, path: Path) -> RunsPanel:
    async def scenario() -> RunsPanel:
        panel = RunsPanel(path)
        qtbot.addWidget(panel)
        panel.resize(1200, 400)
        await until(lambda: len(panel.model.listings) == 5, what="the runs listed")
        return panel

    return qt_loop.run_until_complete(scenario())


def test_replays_and_forks_sit_under_their_source_with_the_fork_point(qtbot: QtBot, qt_loop: Any,
                                                                      store_path: Path) -> None:
    panel = _shown(qtbot, qt_loop, store_path)
    model = panel.model
    assert [item.run_id for item in model.listings] == ["alone555", "src11111", "frk33333", "rep44444", "rep22222"]
    assert [model.depth(r) for r in range(5)] == [0, 0, 1, 2, 1]
    assert model.source_of("frk33333") == model.source_of("rep22222") == "src11111"
    assert model.source_of("rep44444") == "frk33333"  # a replay of the fork, nested
    assert model.index_of("rep44444").data() == "    └ Triad"
    seq = _exec_b_start(triad_run("src11111"))
    assert model.index_of("frk33333", 7).data() == f"frk33333  (fork of src11111 at exec_b#1, seq {seq})"
    panel.model.set_filter(text="rep44444")  # a deep match keeps its sources, shown dimmed
    assert [item.run_id for item in model.listings] == ["src11111", "frk33333", "rep44444"]
    assert model.index_of("src11111").data(RUN_ID_ROLE) == "src11111"
    panel.close_store()


def test_a_loop_of_sources_in_a_damaged_store_still_lists_every_run() -> None:
    def listing(run_id: str, **lineage: str) -> RunListing:
        return RunListing.of(RunSummary(run_id, "wf", "Triad", "h", "succeeded", "", 1.0, 2.0, 1.0, 0, 0, 0.0,
                                        **lineage), {})  # type: ignore[arg-type]

    tree = RunTree.build([listing("a", replay_of="b"), listing("b", replay_of="a"), listing("c", fork_of="a")])
    assert sorted(tree.listings[i].run_id for i in tree.shown()) == ["a", "b", "c"]


def test_the_context_menu_asks_to_rerun_a_finished_run(qtbot: QtBot, qt_loop: Any, store_path: Path) -> None:
    panel = _shown(qtbot, qt_loop, store_path)
    asked: list[str] = []
    panel.rerun_requested.connect(asked.append)
    rect = panel.view.visualRect(panel.model.index_of("rep22222"))
    panel.view.customContextMenuRequested.emit(rect.center())
    menu = panel.findChild(QMenu)
    assert menu is not None and panel.selected_run() == "rep22222"
    actions = {a.text(): a for a in menu.actions()}
    assert actions["Re-run from the recording"].isEnabled()
    actions["Re-run from the recording"].trigger()
    assert asked == ["rep22222"]
    panel.set_live_runs({"alone555"})
    panel.view.customContextMenuRequested.emit(panel.view.visualRect(panel.model.index_of("alone555")).center())
    actions = {a.text(): a for a in panel._menu.actions()}  # type: ignore[union-attr]
    assert not actions["Re-run from the recording"].isEnabled() and not actions["Delete…"].isEnabled()
    panel.close_store()


def test_prune_dialog_previews_then_removes_and_compact_shows_the_size(qtbot: QtBot, qt_loop: Any,
                                                                        store_path: Path) -> None:
    panel = _shown(qtbot, qt_loop, store_path)
    hk = panel.housekeeping

    async def scenario() -> None:
        await until(lambda: hk.size_label.text().startswith("Database: "), what="the store's size")
        dialog = hk.open_prune()
        dialog.older_check.setChecked(False)
        dialog.keep_check.setChecked(True)
        dialog.keep.setValue(3)  # one workflow: rep22222 and src11111 are beyond the newest 3
        await until(lambda: dialog.remove_button.isEnabled(), what="the preview")
        assert "kept: replays or forks that stay descend from them" in dialog.preview.text()
        assert dialog.remove_button.text() == "Remove 1 run"  # src11111 stays: its fork stays
        dialog.remove_button.click()
        await until(lambda: len(panel.model.listings) == 4, what="the list after the prune")
        hk.compact()
        await until(lambda: "compacted" in hk.size_label.text(), what="the compaction")

    qt_loop.run_until_complete(scenario())
    assert "src11111" in [item.run_id for item in panel.model.listings]
    panel.close_store()
