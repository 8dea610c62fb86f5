"""`RunController`: runs started from the window (and stored runs opened in it), folded and shown.

It starts a run on the window's one qasync loop exactly as `triadic run` does (`engine.runtime.launch`:
the store from `open_trace_store(db_path)`, a frozen plan, the offline-first gateway, `human=None` so a
gate waits for `submit_human_decision`), folds each run's event batches into its `RunProjection`
(`launch.follow`) and shows the selected run on the canvas (`scene.run`, the run overlay) and in every
mounted `RunPanel`. Several runs may be live at once; `select_run` picks the one the views follow.
Commands to the selected run are in `run_control.RunControlMixin`; the store, stored runs and the
shutdown in `stored_runs.StoredRunsMixin`.

Invariants:
- views are told coalesced: one `QTimer` flush at most every `FLUSH_MS` takes each projection's changes
  once (`take_changes`) and hands the selected run's to the overlay and to every panel — never a Qt
  signal per event; runs that are not shown have their changes dropped (a panel is reset on selection);
- while runs are live, the objects their projections accumulate are set aside from the cycle
  collector (`gc.freeze`, O(1), every 0.1 s) so no full collection walks them on the GUI loop;
- every blocking step (opening the store, compiling, the key check, decoding a stored run) runs in the
  loop's executor (`app.controllers.run_start`); no dialog is `exec()`-ed inside a coroutine;
- a run that cannot start (store, validation, keys, a bad override) is not started and the window says
  why; `shutdown()` cancels every live run and waits until each is recorded cancelled.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.controllers import run_start
from app.controllers.live_run import LiveRun, RunSource
from app.controllers.playback import PlaybackController
from app.controllers.replay_runs import ForkRunsMixin, ReplayRunsMixin, divergences
from app.controllers.run_control import RunControlMixin
from app.controllers.run_views import RunViews
from app.controllers.stored_runs import StoredRunsMixin
from app.preload import RunWarmup
from engine.graph.convert import workflow_to_dict
from engine.projection import RunProjection

if TYPE_CHECKING:  # the runtime and the store load in a worker (app.preload), not at the window's start-up
    from engine.runtime.plan import CompileError
    from engine.store.store import TraceStore

FLUSH_MS = 30
SET_ASIDE_S = 0.1
# (missing key lines, re-check them — blocking, call it off the loop —, start the same run again)
MissingKeysHandler = Callable[[list[str], Callable[[], list[str]], Callable[[], object]], None]
TICK_MS = 500  # the elapsed time of live runs, shown even when no event arrives (a paused run)


class RunController(RunControlMixin, StoredRunsMixin, ReplayRunsMixin, ForkRunsMixin, QObject):
    runs_changed = Signal()  # a run was added or removed, or a run's status changed (the picker)
    run_selected = Signal(str)  # the run the views follow ("" none)
    summary_changed = Signal()  # the selected run's status, elapsed time, tokens or cost changed
    human_requested = Signal(str, str, str)  # run id, node id, prompt: a gate waits for a decision
    run_finished = Signal(str, str)  # run id, final status
    run_started = Signal(str)  # run id of a run started from the window (recorded in the store)
    store_opened = Signal(object)  # the TraceStore, once it is open
    status_message = Signal(str)
    error_reported = Signal(str, str)  # title, message: the window shows it (not started, not found…)

    def __init__(self, document: Any, scene: Any, view: Any, db_path: str | None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document, self.scene, self.view, self.db_path = document, scene, view, db_path
        self.runs: dict[str, LiveRun] = {}
        self.selected: LiveRun | None = None
        self.breakpoints: set[str] = set()
        self.views = RunViews(self)
        self.playback = PlaybackController(self)
        self.gateway_factory: Callable[[], Any] = _default_gateway
        # told the missing keys, a re-check (blocking: run it off the loop) and a way to start the run again
        self.missing_keys_handler: MissingKeysHandler = self._report_missing_keys
        self._store: TraceStore | None = None
        self._opening: asyncio.Future[TraceStore] | None = None
        self.warmup = RunWarmup()  # what runs need, loaded off the GUI loop when a person reaches for Run
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(FLUSH_MS)
        self._flush.timeout.connect(self._on_flush_timeout)
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._on_tick_timeout)
        self._starting = 0
        self._set_aside_at = 0.0
        self._flushed_at = 0.0

    # -- starting ------------------------------------------------------------------------------
    def live_runs(self) -> list[LiveRun]:
        return [r for r in self.runs.values() if r.live]

    def start(self, inputs: dict[str, object] | None = None, overrides: dict[str, str] | None = None) -> asyncio.Task[
            str | None]:
        """Start the document's workflow with these inputs and role overrides (a task: the run id or None)."""
        return asyncio.ensure_future(self.start_run(inputs or {}, overrides or {}))

    async def start_run(self, inputs: dict[str, object], overrides: dict[str, str]) -> str | None:
        loop = asyncio.get_running_loop()
        workflow = self.document.workflow
        doc, index = workflow_to_dict(workflow), self.document.undo_stack.index()
        path = getattr(self.document, "path", None)
        base_dir = Path(path).parent if path else None
        self._starting += 1
        self.status_message.emit(f"Starting {workflow.name or 'the workflow'}…")
        try:
            # what a run needs loads in the background (if Run's hover has not started it already):
            # wait for it there, rather than load it on the GUI loop (a tokenizer table holds it ~0.3 s)
            await self.warmup.ready(workflow)
            from engine.runtime.launch import start_run  # loaded by then (app.preload), not at start-up
            from engine.runtime.plan import CompileError

            store = await self.store()
            if store is None:
                return None
            plan = await loop.run_in_executor(None, run_start.compile_plan, doc, base_dir)
            gateway = self.gateway_factory()
            missing = await loop.run_in_executor(None, run_start.check_keys, plan, overrides, gateway)
            if missing:
                self.missing_keys_handler(missing, lambda: run_start.check_keys(plan, overrides, gateway),
                                          lambda: self.start(inputs, overrides))
                return None
            run = start_run(plan, store=store, inputs=inputs, model_overrides=overrides, human="person",
                            gateway=gateway)
        except CompileError as exc:
            self.error_reported.emit("The run was not started", _compile_text(exc))
            return None
        finally:
            self._starting -= 1
        for node_id in self.breakpoints:
            run.set_breakpoint(node_id, True)
        self.attach(run, name=workflow.name, document_index=index)
        self.run_started.emit(run.run_id)
        return run.run_id

    def attach(self, source: RunSource, *, name: str = "", document_index: int | None = None,
               workflow: Any = None) -> LiveRun:
        """Follow a started run (or any `RunSource`): fold its stream, list it, select it. `workflow`: the
        version the canvas shows it on, read-only, when it is not the document's (a re-run's recorded one)."""
        live = LiveRun(source.run_id, name, RunProjection(), source=source, workflow=workflow,
                       document_workflow=weakref.ref(self.document.workflow),
                       document_index=self.document.undo_stack.index() if document_index is None else document_index)
        self.runs[live.run_id] = live
        live.task = asyncio.ensure_future(self._follow(live))
        self.select_run(live.run_id)
        self._tick.start()
        self.runs_changed.emit()
        return live

    async def _follow(self, live: LiveRun) -> None:
        from engine.runtime.launch import follow

        assert live.source is not None
        try:
            result = await follow(live.source, live.projection, self._on_batch)  # type: ignore[arg-type]
            live.recording_errors = list(getattr(result, "recording_errors", []) or [])
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the run's own failure is in its events; this is the stream breaking
            live.recording_errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            live.ended_at = time.monotonic()
            if live is self.selected:
                self.scene.run.animated = False
            self._arm_flush()
        status = live.status()
        if live.recording_errors:
            self.error_reported.emit("Part of the run was not recorded", "\n".join(live.recording_errors))
        if divergences(live):
            self.error_reported.emit("The re-run diverged from its recording", "\n".join(divergences(live)))
        self.status_message.emit(f"Run {live.run_id[:8]} {status}: {live.projection.reason or 'finished'}")
        self.run_finished.emit(live.run_id, status)
        if not self.live_runs():
            self._tick.stop()
        self.runs_changed.emit()
        self.summary_changed.emit()

    def _on_batch(self, _batch: list[Any]) -> None:
        self._arm_flush()

    def _arm_flush(self) -> None:
        """Flush at once when the last flush is `FLUSH_MS` old (the first node lights up without waiting),
        else when it will be: never more than one flush per `FLUSH_MS`."""
        if not self._flush.isActive():
            since_ms = (time.monotonic() - self._flushed_at) * 1000
            self._flush.start(max(0, int(FLUSH_MS - since_ms)))

    # -- showing -------------------------------------------------------------------------------
    def _on_flush_timeout(self) -> None:
        self._flushed_at = time.monotonic()
        self._set_aside_what_runs_built()
        changed_status = False
        for live in list(self.runs.values()):
            changes = live.projection.take_changes()
            if live is self.selected and changes:
                if self.playback.showing_live:  # scrubbed back: the views show the past, the run goes on
                    self.views.apply(changes)
                self.playback.run_grew()
            self._announce_questions(live)
            status = live.status()
            if status != live.last_status:
                live.last_status, changed_status = status, True
        if changed_status:
            self.runs_changed.emit()
        self.summary_changed.emit()

    def _set_aside_what_runs_built(self) -> None:
        """While runs are live, what their projections hold is moved out of the cycle collector's passes
        every `SET_ASIDE_S` (`gc.freeze`, O(1)): a full pass over 100,000 events' objects stalled the
        loop 150–190 ms at a time. When the last engine run ends the window's collector sweeps what was
        set aside once the window is idle (`app.gui_collector`), so a finished run's cycles are collected."""
        now = time.monotonic()
        if now - self._set_aside_at >= SET_ASIDE_S and self.live_runs():
            self._set_aside_at = now
            gc.freeze()

    def _on_tick_timeout(self) -> None:
        self.summary_changed.emit()
        self.runs_changed.emit()

    def _announce_questions(self, live: LiveRun) -> None:
        questions = live.projection.questions
        for question in questions[live.questions_seen:]:
            if question.open:
                title = live.projection.nodes[question.node_id].title if question.node_id in live.projection.nodes \
                    else question.node_id
                self.status_message.emit(f"A person is asked at {title}: {question.prompt[:120]}")
                self.human_requested.emit(live.run_id, question.node_id, question.prompt)
        live.questions_seen = len(questions)

    def select_run(self, run_id: str | None) -> None:
        live = self.runs.get(run_id or "")
        self.selected = live
        if live is not None:
            live.projection.take_changes()  # the views read it whole now
        self.views.show(live)
        self.playback.attach(live)
        self.run_selected.emit(live.run_id if live else "")
        self.summary_changed.emit()

    def close_run(self, run_id: str) -> bool:
        """Take a finished or stored run off the picker (a live run is stopped first: refuse)."""
        live = self.runs.get(run_id)
        if live is None or live.live:
            return False
        del self.runs[run_id]
        if self.selected is live:
            rest = list(self.runs)
            self.select_run(rest[-1] if rest else None)
        self.runs_changed.emit()
        return True

    def canvas_edited(self) -> bool:
        """Whether the document changed since the selected live run started (it runs its frozen plan)."""
        live = self.selected
        if live is None or live.read_only:
            return False
        started_on = live.document_workflow() if live.document_workflow is not None else None
        return started_on is not self.document.workflow or self.document.undo_stack.index() != live.document_index

    def _report_missing_keys(self, lines: list[str], _recheck: Callable[[], list[str]],
                             _start_again: Callable[[], object]) -> None:
        self.error_reported.emit("API keys missing — the run was not started",
                                 "\n".join(lines) + "\n\nSet the variable (or store the key in Settings → Models & keys) "
                                                    "and run again.")


def _default_gateway() -> Any:
    from engine.llm.offline_first import OfflineFirstGateway

    return OfflineFirstGateway()


def _compile_text(exc: CompileError) -> str:
    problems = getattr(exc, "problems", None) or []
    lines = [getattr(p, "message", str(p)) for p in problems[:12]]
    return "\n".join(lines) if lines else str(exc)
