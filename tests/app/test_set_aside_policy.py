"""What the window sets aside from the cycle collector (`gc.freeze`) is still collected once it may be
garbage: a replaced document's cycles are freed when the window is idle, and the end of a run never gives
everything back to the collector (full collections would walk the open document again and again)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app import gui_collector
from app.document import Document
from app.gui_collector import GuiThreadCollector
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.gc_pause import older_objects_set_aside
from engine.graph.format import load_workflow
from engine.graph.model import Workflow


class _Cycle:
    def __init__(self) -> None:
        self.me = self  # only the cycle collector frees it


def _garbage_cycle() -> weakref.ref[_Cycle]:
    return weakref.ref(_Cycle())


@pytest.fixture
def collector(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> Iterator[GuiThreadCollector]:
    monkeypatch.setattr(gui_collector, "SWEEP_AFTER_S", 0.0)
    monkeypatch.setattr(gui_collector, "_sweep_at", None)
    gc.collect()
    found = GuiThreadCollector(interval_ms=20)
    yield found
    found.stop()
    gc.unfreeze()  # the session goes on with nothing set aside, as it started


def _window(qtbot: QtBot) -> MainWindow:
    window = MainWindow(Document(Workflow()))
    qtbot.addWidget(window)
    return window


def test_the_cycles_of_a_replaced_document_are_collected_once_idle(qtbot: QtBot,
                                                                   collector: GuiThreadCollector) -> None:
    window = _window(qtbot)
    window.document.replace(load_workflow(bundled_examples()[0]))
    dropped = _garbage_cycle()  # garbage of the open document, set aside with it by the next freeze
    gc.freeze()
    gc.collect()
    assert dropped() is not None  # set aside: no collection reaches it
    window.document.replace(load_workflow(bundled_examples()[0]))
    qtbot.waitUntil(lambda: dropped() is None, timeout=5000)
    assert collector.sweeps == 1
    assert gc.get_freeze_count() > 0  # what lives (the new document, the window) is set aside again


def test_opening_over_an_empty_document_asks_for_no_sweep(qtbot: QtBot, collector: GuiThreadCollector) -> None:
    window = _window(qtbot)
    window.document.replace(load_workflow(bundled_examples()[0]))
    assert gui_collector._sweep_at is None


def test_the_end_of_a_run_keeps_the_set_aside_and_sweeps_instead(qtbot: QtBot,
                                                                 collector: GuiThreadCollector) -> None:
    window = _window(qtbot)
    window.document.replace(load_workflow(bundled_examples()[0]))
    set_aside = gc.get_freeze_count()
    dropped = _garbage_cycle()
    with older_objects_set_aside():  # a run from start to end
        pass
    assert gc.get_freeze_count() >= set_aside  # not given back to the collector wholesale
    qtbot.waitUntil(lambda: collector.sweeps == 1, timeout=5000)
    assert dropped() is None
    assert gc.get_freeze_count() > 0


def test_stopping_the_collector_gives_the_engine_its_own_ending_back(qtbot: QtBot) -> None:
    found = GuiThreadCollector(interval_ms=20)
    found.stop()
    gc.collect()
    with older_objects_set_aside():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0  # headless: the engine unfreezes at the end of its last run
