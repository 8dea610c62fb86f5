"""`WorkerThread`: one long-lived daemon thread that runs the jobs posted to it, one after another.

The window keeps slow pure-Python work off the GUI thread on a few such threads, each named for its
work (validation of the open workflow; reading a workflow file). A job hands its result back to the GUI
thread itself, through a queued Qt signal of the object that posted it.

Invariants: the thread starts on the first `post` (starting a thread per job made the GUI thread wait
~20 ms for it while the window was busy) and lives as long as the process; jobs run in the order
posted, never two at once; it is a daemon, so quitting never waits on it — a job must only read what
it was given and never touch a Qt object.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

Job = Callable[[], None]


class WorkerThread:
    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: queue.SimpleQueue[Job] | None = None
        self._lock = threading.Lock()

    def post(self, job: Job) -> None:
        """Run `job` on this thread after the jobs posted before it."""
        with self._lock:
            if self._jobs is None:
                self._jobs = queue.SimpleQueue()
                threading.Thread(target=_serve, args=(self._jobs,), name=self.name, daemon=True).start()
            jobs = self._jobs
        jobs.put(job)


def _serve(jobs: queue.SimpleQueue[Job]) -> None:
    while True:
        jobs.get()()
