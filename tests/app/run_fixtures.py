"""Helpers of the run-control tests: the window on the one qasync loop, the simulated provider, waiting.

`gui_loop` is the process's qasync loop for one test (closed after it, so the next pytest-asyncio test
finds no running loop); `run_window(qtbot, loop, tmp_path, example)` is a shown main window on a bundled
example whose runs use the in-process simulated provider and a store in `tmp_path`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document import Document
from app.event_loop import create_event_loop
from app.main_window import MainWindow
from app.resource_paths import bundled_examples
from engine.graph.model import Workflow
from engine.llm.sim import SimGateway
from engine.projection import ProjectionChanges, RunProjection
from widgets.run_panel import RunPanel

T = TypeVar("T")


@pytest.fixture
def gui_loop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    loop = create_event_loop(qapp)
    yield loop
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.stop()
    asyncio.events._set_running_loop(None)
    loop.close()
    asyncio.set_event_loop(None)


def sub_graph_caller_window(qtbot: QtBot, tmp_path: Path) -> tuple[MainWindow, Path]:
    """The window on a workflow whose sub-graph node "research" runs the triad file beside it in `tmp_path`;
    that sub-graph file's path (`tests.engine.replay.sub_graph_files`)."""
    from tests.engine.replay.sub_graph_files import caller_document, write_sub_graph

    sub = write_sub_graph(tmp_path)
    caller = tmp_path / "caller.triadic.json"
    caller.write_text(json.dumps(caller_document()))
    window = run_window(qtbot, tmp_path, None)
    assert window.files.open_path(str(caller))
    return window, sub


def example(name: str) -> Path:
    found = [p for p in bundled_examples() if p.name == f"{name}.triadic.json"]
    assert found, name
    return found[0]


def run_window(qtbot: QtBot, tmp_path: Path, name: str | None = "triad",
               workflow: Workflow | None = None) -> MainWindow:
    window = MainWindow(Document(workflow or Workflow()), db=str(tmp_path / "trace.db"))
    qtbot.addWidget(window)
    if name is not None:
        assert window.files.open_path(str(example(name)))
    window.runs.gateway_factory = SimGateway
    window.resize(1300, 800)
    window.show()
    return window


def drive(loop: qasync.QEventLoop, scenario: Awaitable[T], timeout: float = 120.0) -> T:
    """Run one test's scenario on the loop — once per test: qasync's `run_until_complete` processes the
    Qt events left when it stops with no running asyncio loop, which breaks any task stepped then."""
    return loop.run_until_complete(asyncio.wait_for(scenario, timeout))


async def until(check: Callable[[], Any], timeout: float = 30.0) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


async def run_to_end(window: MainWindow) -> str:
    """Start a run of the window's workflow (no inputs, no overrides), wait for its end and the last flush."""
    run_id = await window.runs.start_run({}, {})
    assert run_id is not None
    await window.runs.runs[run_id].task
    await settle()
    return run_id


async def run_then_open(window: MainWindow) -> str:
    """`run_to_end`, then the run closed and opened again from the store, as a past run (playback's subject)."""
    run_id = await run_to_end(window)
    window.runs.close_run(run_id)
    assert await window.runs.open_stored_run(run_id) == run_id
    return run_id


async def settle(seconds: float = 0.08) -> None:
    """Let the coalescing flush (30 ms) run."""
    await asyncio.sleep(seconds)


class RecordingPanel(RunPanel):
    """A RunPanel that keeps what it is told (the contract's calls), to check what the controller feeds."""

    def __init__(self) -> None:
        super().__init__()
        self.resets = 0
        self.flushes: list[ProjectionChanges] = []
        self.filters: list[str | None] = []
        self.spans: list[str] = []

    def rebuild(self) -> None:
        self.resets += 1

    def update_from(self, changes: ProjectionChanges) -> None:
        self.flushes.append(changes)

    def set_node_filter(self, node_id: str | None) -> None:
        self.filters.append(node_id)
        super().set_node_filter(node_id)

    def select_span(self, span_id: str) -> None:
        self.spans.append(span_id)

    @property
    def shown(self) -> RunProjection | None:
        return self.projection
