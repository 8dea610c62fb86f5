"""What a run does between its `RunStarted` event and its first node: make the run durable, load code.

Invariants: `begin_durably` returns once `RunStarted` (and the workflow version the trace writer
stores ahead of it) is committed — a `kill -9` after that leaves the run in the store, marked
interrupted when the store is next opened — and once the role implementations (and the tokenizer
tables of the simulated models the run uses) are loaded (in a
worker thread, so the event loop, and a GUI on it, keeps going). Subscribers (the CLI, the GUI) are
shown `RunStarted` only once it is committed, so a run anyone saw start is never lost. The run's deadline
counts from `RunStarted`, this time included (`engine.deadline_clock`: one clock for the engine's checks
and every view; a person holding the run meanwhile is not counted). A store that cannot commit within
`COMMIT_WAIT_S` (e.g. a write lock held by another process) does not hold the run up longer: the
problem is returned for the run's `recording_errors`; at the end `end_durably` waits for the writer
at most until the run's deadline (or `CLOSE_WAIT_S`), then gives up saying what was not stored. Both
waits are woken by the writer's own thread (no worker thread in between) when nothing else is needed.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Awaitable, Mapping

from engine.runtime.hub import EventHub
from engine.runtime.plan import RunPlan
from engine.runtime.ports import EventRecorder
from engine.runtime.preflight import models_called

COMMIT_WAIT_S = 10.0
CLOSE_WAIT_S = 15.0  # without a deadline: longer than the store's busy timeout (10 s)
MIN_CLOSE_WAIT_S = 2.0


_WARMED: set[str] = set()  # the simulated models whose tokenizer tables this process has loaded


def _load_code(models: list[str]) -> None:
    """The roles, and the tokenizer tables the simulated provider counts with (~0.4 s the first time)."""
    importlib.import_module("engine.roles")
    if models:
        from engine.llm.tokens import count_text

        for model in models:
            count_text("warm", model)
            _WARMED.add(model)


async def _committed(writer: EventRecorder, wait: float, what: str) -> bool:
    """Whether everything appended to `writer` so far is committed within `wait` seconds. The writer's
    thread wakes the loop itself once it got there (`call_in_order`): no worker thread in between,
    whose wake-up (milliseconds on a loaded machine) the run would wait for too."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bool] = loop.create_future()

    def resolve() -> None:
        if not done.done():
            done.set_result(True)

    writer.call_in_order(lambda: loop.call_soon_threadsafe(resolve), what)
    try:
        return await asyncio.wait_for(done, wait)
    except TimeoutError:
        return False


async def begin_durably(hub: EventHub, writer: EventRecorder | None, plan: RunPlan, overrides: Mapping[str, str]) -> str | None:
    """Commit what the run emitted so far and load the code its nodes need, then let subscribers see
    the events (held since `hub.hold_subscribers()`); a problem to record, or None."""
    try:
        return await _begin(hub, writer, plan, overrides)
    finally:
        hub.release_subscribers()


async def _begin(hub: EventHub, writer: EventRecorder | None, plan: RunPlan, overrides: Mapping[str, str]) -> str | None:
    hub.flush_sinks()
    deadline_s = plan.budget.deadline_s
    wait = min(COMMIT_WAIT_S, deadline_s) if deadline_s else COMMIT_WAIT_S
    jobs: list[Awaitable[object]] = [_committed(writer, wait, "the run's start")] if writer is not None else []
    models = sorted({model for model, _ in models_called(plan, overrides) if model.startswith("sim/")} - _WARMED)
    if "engine.roles" not in sys.modules or models:  # nothing left to load: no worker thread to wait for
        jobs.append(asyncio.to_thread(_load_code, models))
    done = await asyncio.gather(*jobs)
    if writer is not None and done[0] is False:
        return f"the run's start was not committed to the store within {wait:g} s (is it locked by another process?)"
    return None


async def end_durably(writer: EventRecorder, deadline_s: float | None, elapsed_s: float) -> None:
    """Close the run's trace writer once every event is committed, waiting at most what is left of the
    run's deadline (`elapsed_s`: its time as the deadline counts it; at least `MIN_CLOSE_WAIT_S`), or
    `CLOSE_WAIT_S`: a store locked by another process
    does not hold the run's end; the writer reports what it could not store. The common end — all
    committed, nothing to report — closes on the loop (the writer's thread has only its stop left to
    take); anything else (a write still waiting, problems to mark in the store) closes in a worker."""
    wait = max(MIN_CLOSE_WAIT_S, deadline_s - elapsed_s) if deadline_s else CLOSE_WAIT_S
    committed = await _committed(writer, wait, "the run's end")
    if committed and not writer.errors:
        writer.close(timeout=wait)
    else:  # still not committed after `wait`: the writer is given up on at once
        await asyncio.to_thread(writer.close, wait if committed else 0.0, waited_s=0.0 if committed else wait)


__all__ = ["CLOSE_WAIT_S", "COMMIT_WAIT_S", "begin_durably", "end_durably"]
