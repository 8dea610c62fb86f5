"""`StoredRunsMixin`: the `RunController`'s store — opened once off the GUI thread — its stored runs
shown read-only (`show_at`: at one event, for the features that point at an event of a run), and the
shutdown that records every live run cancelled.

Invariants: a stored run is decoded and projected in the loop's executor (`run_start.load_stored_run`),
where each mounted panel's `RunPanel.prepare` also builds what it can from it (the GUI thread only
shows it), and shown against the workflow version it ran with; the objects it loaded are then set
aside from the cycle collector (`gc.freeze`, O(1)): a full pass over a 100,000-event run's objects
would otherwise stall the GUI loop ~40–60 ms at some later allocation; opening the same run twice selects it;
`shutdown()` returns only when every live run was cancelled and its recording ended (or 15 s passed).
"""

from __future__ import annotations

import asyncio
import gc
from typing import TYPE_CHECKING, Any

from app.controllers import run_start
from app.controllers.live_run import LiveRun

if TYPE_CHECKING:
    from engine.store.store import TraceStore


class StoredRunsMixin:
    runs: dict[str, LiveRun]
    db_path: str | None
    _store: TraceStore | None
    _opening: asyncio.Future[TraceStore] | None
    status_message: Any  # the controller's signals
    error_reported: Any
    runs_changed: Any
    store_opened: Any
    views: Any  # the controller's RunViews
    playback: Any  # the controller's PlaybackController
    selected: LiveRun | None

    if TYPE_CHECKING:
        def live_runs(self) -> list[LiveRun]: ...
        def select_run(self, run_id: str | None) -> None: ...
    # -- stored runs -----------------------------------------------------------------------------
    def open_stored_run(self, run_id: str) -> asyncio.Task[str | None]:
        """Show a stored run read-only (decoded off the GUI thread) against the workflow version it ran with."""
        return asyncio.ensure_future(self._open_stored(run_id))

    async def _open_stored(self, run_id: str) -> str | None:
        for live in self.runs.values():
            if live.run_id == run_id or (len(run_id) >= 6 and live.run_id.startswith(run_id)):
                self.select_run(live.run_id)
                return live.run_id
        store = await self.store()
        if store is None:
            return None
        self.status_message.emit(f"Opening run {run_id[:8]}…")
        preparers = {name: type(panel).prepare for name, panel in self.views.panels.items()}
        try:
            stored = await asyncio.get_running_loop().run_in_executor(
                None, run_start.load_stored_run, store, run_id, preparers)
        except Exception as exc:  # not found, ambiguous prefix, unreadable: said, never a traceback
            self.error_reported.emit("The run cannot be opened", str(exc))
            return None
        p = stored.projection
        live = LiveRun(stored.run_id, p.workflow_name, p, workflow=stored.workflow, last_status=p.status,
                       stored_status=stored.status, prepared=stored.prepared)
        gc.freeze()  # set aside what was loaded (see the invariants)
        self.runs[live.run_id] = live
        self.select_run(live.run_id)
        self.runs_changed.emit()
        return live.run_id

    def show_at(self, run_id: str, seq: int) -> asyncio.Task[str | None]:
        """Show run `run_id` as it was after event `seq`: open it if it is not (read-only, as above), select it,
        move the playback bar there and select that event in the Events and Trace docks. The task gives the
        run id (None: it could not be opened — said already)."""
        return asyncio.ensure_future(self._show_at(run_id, seq))

    async def _show_at(self, run_id: str, seq: int) -> str | None:
        opened = await self._open_stored(run_id)
        if opened is not None:
            if self.selected is None or self.selected.run_id != opened:
                self.select_run(opened)
            self.playback.seek(seq, select=True)
        return opened

    def back_to_editing(self) -> None:
        """Leave a stored run's read-only canvas: the document again, with the newest live run if any."""
        live = self.live_runs()
        self.select_run(live[-1].run_id if live else None)

    # -- store and shutdown ----------------------------------------------------------------------
    def warm_up(self) -> asyncio.Task[TraceStore | None]:
        """Open the store in the background now (the window has just shown), so Run does not wait for
        it; a store that cannot be opened is said at once."""
        return asyncio.ensure_future(self.store())

    @property
    def opened_store(self) -> TraceStore | None:
        """The trace store if it is open already (None: not yet, or it cannot be)."""
        return self._store

    async def store(self) -> TraceStore | None:
        """The trace store (opened once, off the GUI thread, however many ask at once); None after saying
        why it cannot be opened (the next run asks again)."""
        if self._store is None:
            if self._opening is None:
                self._opening = asyncio.get_running_loop().run_in_executor(None, run_start.open_store, self.db_path)
            opening = self._opening
            try:
                store = await asyncio.shield(opening)
                if self._store is None:
                    self._store = store
                    self.store_opened.emit(store)
            except run_start.store_open_error() as exc:  # evaluated only when opening raised
                if self._opening is opening:
                    self._opening = None
                    self.error_reported.emit("The trace store cannot be opened",
                                             f"{exc}\n\nRuns cannot be started or recorded until it can.")
                return None
        return self._store

    async def shutdown(self) -> None:
        """Cancel every live run and wait until each is recorded (cancelled); then close the store."""
        live = self.live_runs()
        for run in live:
            run.source.cancel()  # type: ignore[union-attr]
        tasks = [run.task for run in live if run.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=15)
        if self._store is not None:
            self._store.close()
            self._store = self._opening = None
