"""The Memory and Verdicts docks following a real run live on the GUI's qasync loop, the way the run
controller drives them: the run folds into one projection, a 30 ms timer hands the docks its changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import qasync
from example_runs import EXAMPLES
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.store.store import TraceStore
from widgets.memory_view import MemoryPanel
from widgets.verdicts import VerdictsPanel


def test_docks_follow_a_live_run_on_the_qasync_loop(qtbot: QtBot, qapp: QApplication, tmp_path: Path) -> None:
    store = TraceStore(tmp_path / "trace.db")
    verdicts, memory = VerdictsPanel(), MemoryPanel(store=store)
    for panel in (verdicts, memory):
        qtbot.addWidget(panel)
        panel.resize(900, 600)
        panel.show()
    projection = RunProjection()
    verdicts.set_projection(projection)
    memory.set_projection(projection)
    resets: list[str] = []
    verdicts.model.modelReset.connect(lambda: resets.append("verdicts"))
    memory.history_model.modelReset.connect(lambda: resets.append("memory"))
    flushes: list[int] = []

    def flush() -> None:
        changes = projection.take_changes()
        if changes:
            flushes.append(changes.events)
            verdicts.apply_changes(changes)
            memory.apply_changes(changes)

    timer = QTimer()
    timer.setInterval(30)
    timer.timeout.connect(flush)
    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)

    async def go() -> str:
        plan = compile_workflow(load_workflow(EXAMPLES / "research.triadic.json"), base_dir=EXAMPLES)
        run = start_run(plan, store=store, gateway=SimGateway())
        timer.start()
        await follow(run, projection)
        await asyncio.sleep(0.05)  # the last flush
        timer.stop()
        flush()
        verdicts.table.selectRow(1)
        memory.history.selectRow(0)
        for _ in range(200):  # the store's answer comes back from a worker thread through the loop
            note = memory.value.store_note.text()
            if "store" in note and "Asking" not in note:  # the answer, not the question
                break
            await asyncio.sleep(0.01)
        return projection.run_id

    try:
        run_id = loop.run_until_complete(go())
    finally:
        loop.stop()
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)
    assert resets == [] and sum(flushes) == len(projection.events)
    stored = store.verdicts(run_id)
    assert [verdicts.model.verdict_at(r).seq for r in range(verdicts.model.rowCount())] == [v.seq for v in stored]
    assert [e.seq for e in memory.history_model.rows] == [w.seq for w in store.memory_writes(run_id)]
    assert verdicts.details.diff_status.text().startswith("+")
    assert "still holds the value this run left" in memory.value.store_note.text()
