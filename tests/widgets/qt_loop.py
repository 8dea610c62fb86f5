"""A qasync loop over the test's QApplication, as the window has one: async widget tests run on it.

`qt_loop_fixture` (registered in a test module as `_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)`) yields the loop (its default executor a small thread pool, like `app.event_loop`'s) and
tears it down so the next test — pytest-asyncio's or another qasync one — starts clean. `until`
awaits a condition while the loop (and so Qt) keeps running.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import qasync
from PySide6.QtWidgets import QApplication


def qt_loop_fixture(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    loop = qasync.QEventLoop(qapp)
    executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="test-loop")
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    yield loop
    for task in asyncio.all_tasks(loop):
        task.cancel()
    loop.stop()
    asyncio.events._set_running_loop(None)
    loop.close()
    executor.shutdown(wait=True)
    asyncio.set_event_loop(None)


async def until(condition: Callable[[], object], timeout_s: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
