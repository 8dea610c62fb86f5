"""The one qasync loop: thread-pool executor, async clean-up before the loop closes."""

from __future__ import annotations

import asyncio
import threading

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.event_loop import create_event_loop, run_until_quit


def test_loop_runs_executor_work_and_cleans_up_on_quit(qapp: QApplication) -> None:
    loop = create_event_loop(qapp)
    seen: dict[str, object] = {}

    async def work() -> None:
        seen["thread"] = await loop.run_in_executor(None, lambda: threading.current_thread().name)
        await asyncio.sleep(3600)

    async def clean_up() -> None:
        seen["cleaned_while_running"] = asyncio.get_running_loop() is loop

    task = loop.create_task(work())
    QTimer.singleShot(200, qapp.quit)
    assert run_until_quit(qapp, loop, clean_up) == 0
    assert str(seen["thread"]).startswith("triadic")  # our ThreadPoolExecutor, not qasync's default
    assert seen["cleaned_while_running"] is True
    assert task.cancelled() and loop.is_closed()
