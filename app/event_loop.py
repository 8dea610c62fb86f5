"""The one asyncio event loop of the GUI: a qasync.QEventLoop over the QApplication.

Invariants:
- exactly one loop per process, made by `create_event_loop`; its default executor is a
  `ThreadPoolExecutor` (blocking work such as SQLite reads goes there, never on the GUI thread);
- `run_until_quit` returns only after the async clean-up ran (pending tasks cancelled, async
  generators and the executor shut down) while the loop was still running, then closes the loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

import qasync
from PySide6.QtWidgets import QApplication

CleanUp = Callable[[], Awaitable[None]]


def create_event_loop(app: QApplication) -> qasync.QEventLoop:
    """Make the process's one qasync loop and install it as the current asyncio loop."""
    loop = qasync.QEventLoop(app)
    loop.set_default_executor(ThreadPoolExecutor(max_workers=4, thread_name_prefix="triadic"))
    asyncio.set_event_loop(loop)
    return loop


async def _cancel_pending(loop: asyncio.AbstractEventLoop) -> None:
    current = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks(loop) if t is not current and not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)
    await loop.shutdown_asyncgens()
    await loop.shutdown_default_executor()


def run_until_quit(app: QApplication, loop: qasync.QEventLoop, clean_up: CleanUp | None = None) -> int:
    """Run the loop until the application quits, then clean up asynchronously and close the loop."""
    quitting = asyncio.Event()
    connection = app.aboutToQuit.connect(quitting.set)
    try:
        loop.run_until_complete(quitting.wait())
        if clean_up is not None:
            loop.run_until_complete(clean_up())
        loop.run_until_complete(_cancel_pending(loop))
    finally:
        app.aboutToQuit.disconnect(connection)
        loop.close()
        asyncio.set_event_loop(None)
    return 0
