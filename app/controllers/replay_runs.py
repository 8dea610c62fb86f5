"""`ReplayRunsMixin`: re-running a stored run from its recording in the window.

`rerun_stored(run_id)` loads the run's recording and recorded workflow version in the loop's executor
(`engine.replay.load_source` / `prepare_replay`, strict mode: every model, tool, memory and human
answer served from the recording, zero provider calls), compares that version with the document when
it is the same workflow (`run_changes`: its nodes, and those of the sub-graph files beside it, against
the versions the run recorded) and, if any differ or its sub-graph files cannot be checked (a run from
before sub-graph versions were kept), asks `replay_changes_handler` first (the window's non-modal dialog
names them; the re-run always runs the recorded versions). The re-run
is a normal run started through the engine's replay path: attached like any run, it plays live in
every dock, is recorded with `replay_of`, and a divergence (`ReplayDiverged`) is said when it ends
(and is in the run's problems).

Invariant: nothing blocking on the GUI thread; a run that cannot be re-run is said, never raised.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.graph.convert import workflow_to_dict

if TYPE_CHECKING:
    from app.controllers.live_run import LiveRun
    from app.preload import RunWarmup
    from engine.replay import ReplaySetup, RunChanges
    from engine.store.store import TraceStore

# (run id, what differs from the recorded versions, start the re-run of the recorded versions)
ReplayChangesHandler = Callable[[str, "RunChanges", Callable[[], object]], object]


def _proceed(_run_id: str, _changes: RunChanges, start: Callable[[], object]) -> object:
    return start()


class ReplayRunsMixin:
    document: Any
    warmup: RunWarmup
    status_message: Any  # the controller's signals
    error_reported: Any
    run_started: Any
    replay_changes_handler: ReplayChangesHandler = staticmethod(_proceed)  # type: ignore[assignment]

    if TYPE_CHECKING:
        async def store(self) -> TraceStore | None: ...
        def attach(self, source: Any, *, name: str = "", document_index: int | None = None,
                   workflow: Any = None) -> LiveRun: ...

    def rerun_stored(self, run_id: str) -> asyncio.Task[str | None]:
        """Re-run a stored run from its recording (a task: the new run's id, or None when not started)."""
        return asyncio.ensure_future(self._rerun(run_id))

    async def _rerun(self, run_id: str) -> str | None:
        await self.warmup.ready(self.document.workflow)  # off the GUI loop, as for a run (app.preload)
        store = await self.store()
        if store is None:
            return None
        self.status_message.emit(f"Preparing the re-run of {run_id[:8]} from its recording…")
        document = self.document
        current = workflow_to_dict(document.workflow)
        path = getattr(document, "path", None)
        try:
            setup, changes, same = await asyncio.get_running_loop().run_in_executor(
                None, _prepare, store, run_id, current, Path(path).parent if path else None)
        except Exception as exc:  # not found, still running, version missing, does not compile: said
            self.error_reported.emit("The run cannot be re-run", str(exc))
            return None
        started: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

        def start() -> None:
            if not started.done():
                started.set_result(self._start_replay(setup, store, show_recorded=bool(changes.lines) or not same))

        if changes:
            self.replay_changes_handler(setup.source.run.id, changes, start)
            return None
        start()
        return started.result()

    def _start_replay(self, setup: ReplaySetup, store: TraceStore, *, show_recorded: bool) -> str:
        from engine.graph.format import workflow_from_dict
        from engine.replay import start_replay

        source = setup.source.run
        run = start_replay(setup, store)
        workflow = workflow_from_dict(setup.source.document) if show_recorded else None
        self.attach(run, name=f"{source.workflow_name or 'run'} (re-run of {source.id[:8]})", workflow=workflow)
        self.run_started.emit(run.run_id)
        return run.run_id


def _prepare(store: TraceStore, run_id: str, current: dict[str, Any],
             base_dir: Path | None) -> tuple[ReplaySetup, RunChanges, bool]:
    """Blocking (the executor): the replay's setup, what the document (and the sub-graph files beside it)
    change in the recorded versions (only when it is the same workflow), and whether it is the same workflow."""
    from engine.replay import RunChanges, load_source, prepare_replay, run_changes

    source = load_source(store, run_id)
    same = str(current.get("id") or "") == source.run.workflow_id
    changes = run_changes(source.document, source.sub_graphs, current, base_dir) if same else RunChanges()
    return prepare_replay(source, mode="strict", base_dir=base_dir if same else None), changes, same


def divergences(live: LiveRun) -> list[str]:
    """The run's "replay diverged" lines (from its projection's problems)."""
    return [line for line in live.projection.problems if "replay diverged" in line]


class ForkRunsMixin:
    """`fork_stored(run_id, at, ...)`: fork a stored run at "NODE#N" with edits, started in the window."""

    document: Any
    warmup: RunWarmup
    error_reported: Any
    run_started: Any
    status_message: Any
    gateway_factory: Callable[[], Any]
    missing_keys_handler: Any

    if TYPE_CHECKING:
        async def store(self) -> TraceStore | None: ...
        def attach(self, source: Any, *, name: str = "", document_index: int | None = None,
                   workflow: Any = None) -> LiveRun: ...

    def fork_stored(self, run_id: str, at: str, model: str | None = None, prompt: str | None = None,
                    params: dict[str, str] | None = None) -> asyncio.Task[str | None]:
        return asyncio.ensure_future(self._fork(run_id, at, model, prompt, dict(params or {})))

    async def _fork(self, run_id: str, at: str, model: str | None, prompt: str | None,
                    params: dict[str, str]) -> str | None:
        from engine.replay import ForkError

        await self.warmup.ready(self.document.workflow)  # off the GUI loop, as for a run (app.preload)
        store = await self.store()
        if store is None:
            return None
        self.status_message.emit(f"Preparing the fork of {run_id[:8]} at {at}…")
        gateway = self.gateway_factory()
        loop = asyncio.get_running_loop()

        def prepare() -> Any:
            from engine.replay import load_source, prepare_fork

            source = load_source(store, run_id)
            return prepare_fork(store, source, at, live=gateway, model=model, prompt=prompt, params=params,
                                human="person")

        try:
            setup, point = await loop.run_in_executor(None, prepare)
        except ForkError as exc:
            if str(exc).startswith(KEYS_MISSING):  # the existing keys flow: store them, then fork again
                def recheck() -> list[str]:
                    try:
                        prepare()
                    except ForkError as again:
                        return [str(again).removeprefix(KEYS_MISSING)]
                    return []
                self.missing_keys_handler([str(exc).removeprefix(KEYS_MISSING)], recheck,
                                          lambda: self.fork_stored(run_id, at, model, prompt, params))
                return None
            self.error_reported.emit("The run cannot be forked", str(exc))
            return None
        except Exception as exc:
            self.error_reported.emit("The run cannot be forked", str(exc))
            return None
        from engine.graph.format import workflow_from_dict
        from engine.replay import start_replay

        run = start_replay(setup, store)
        source = setup.source.run
        self.attach(run, name=f"{source.workflow_name or 'run'} (fork of {source.id[:8]} at {point.node_id}"
                              f"#{point.execution})", workflow=workflow_from_dict(setup.source.document))
        self.run_started.emit(run.run_id)
        return run.run_id


KEYS_MISSING = "the nodes the fork runs live cannot call their models: "
