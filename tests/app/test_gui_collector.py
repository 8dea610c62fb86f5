"""Cycles are collected on the GUI thread only: garbage a worker thread leaves behind (even while it
allocates far past the collector's threshold) is freed by the window's collector, on the GUI thread."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest
from pytestqt.qtbot import QtBot

from app.gui_collector import GuiThreadCollector


class _Node:
    freed_on: ClassVar[list[str]] = []

    def __init__(self) -> None:
        self.me = self  # a cycle: only the cycle collector frees it

    def __del__(self) -> None:
        _Node.freed_on.append(threading.current_thread().name)


@pytest.fixture
def collector(qtbot: QtBot) -> Iterator[GuiThreadCollector]:
    gc.collect()
    found = GuiThreadCollector(interval_ms=20)
    yield found
    found.stop()


def test_garbage_left_by_a_worker_is_freed_on_the_gui_thread(qtbot: QtBot, collector: GuiThreadCollector) -> None:
    assert not gc.isenabled()
    _Node.freed_on.clear()
    kept: list[list[int]] = []

    def worker() -> None:
        for _ in range(200):
            _Node()
        kept.extend([] for _ in range(50_000))  # live containers: far past the youngest generation's threshold

    thread = threading.Thread(target=worker, name="worker")
    thread.start()
    thread.join()
    assert _Node.freed_on == []  # the worker never collected
    qtbot.waitUntil(lambda: len(_Node.freed_on) == 200, timeout=5000)
    assert set(_Node.freed_on) == {threading.main_thread().name}
    assert collector.collections >= 1
    kept.clear()


def test_stop_turns_the_automatic_collector_back_on_if_it_was(qtbot: QtBot) -> None:
    was = gc.isenabled()  # the test session runs with it off (tests/conftest.py), as the window does
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            found = GuiThreadCollector(interval_ms=20)
            assert not gc.isenabled()
            found.stop()
            assert gc.isenabled() is before
    finally:
        (gc.enable if was else gc.disable)()
