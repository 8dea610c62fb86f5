"""A run of a compiled plan: start, watch (events), control (cancel/pause/step/breakpoints/human), wait.

Invariants: a `Run` executes its `RunPlan` exactly once; the first event is `RunStarted`, the last
`RunFinished` with a final status (succeeded | failed | cancelled | budget_exceeded) and its reason,
right after the `ContractsChecked` of the workflow's trace contracts when it has any;
when a store is given, the workflow version is saved and every event is appended to its writer (a
sink like any other subscriber), which is closed — everything committed — before `wait()` returns;
what could not be recorded is listed in `RunResult.recording_errors`. `cancel()` is safe at any time
and acts once: before the run began it ends the run cancelled before its first node; while it runs it
cancels it; once its outcome is known it changes nothing. A run whose models cannot be
called (an API key missing: `preflight`) fails before its first node runs. `RunStarted` and the
workflow version are committed, and the role code loaded, before the first node (`startup`); the
run's deadline counts from `RunStarted`, that time included. While a run goes on, the
objects that existed before it are left out of the cycle collector's passes (`older_objects_set_aside`).
A run that ends without a value on any Output fails saying which node upstream held it back
(`no_result`); a run cut off by its `deadline_s` names the nodes that were running then (`run_deadline`).
Each change of the run's hold (pause, breakpoint, step, resume) is one `RunPaused` / `RunResumed`
event, and the run's `deadline_s` does not count the time the run holds, from wherever a hold begins
(`pausing`, `engine.deadline_clock`).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from engine.events import (
    BudgetExceeded,
    Event,
    NodeState,
    RunFinished,
    RunPlanned,
    RunStarted,
    RunStatus,
    VerdictIssued,
)
from engine.gc_pause import older_objects_set_aside
from engine.llm.types import ChatGateway
from engine.memory import InMemoryBackend, MemoryBackend, StoreMemoryBackend
from engine.runtime.budget import BudgetHit, BudgetTracker
from engine.runtime.control import HumanChoice, HumanPolicy, RunControl
from engine.runtime.hub import EventHub
from engine.runtime.no_result import explain_no_result
from engine.runtime.pausing import PauseAnnouncer, RunDeadline
from engine.runtime.plan import CompileError, RunPlan
from engine.runtime.plan_nodes import plan_nodes
from engine.runtime.ports import EventRecorder, RunStore
from engine.runtime.preflight import missing_keys
from engine.runtime.run_contracts import check_contracts
from engine.runtime.run_deadline import DeadlineWatch, deadline_reason
from engine.runtime.run_services import RunServices
from engine.runtime.scheduler import GraphExecutor
from engine.runtime.startup import begin_durably, end_durably
from engine.runtime.sub_graph_versions import SETTINGS_KEY as SUB_GRAPHS
from engine.runtime.sub_graph_versions import sub_graph_documents
from engine.tools.registry import ToolRegistry
from engine.tools.runtools import RunTools


@dataclass(frozen=True, slots=True)
class RunResult:
    run_id: str
    status: RunStatus
    reason: str
    outputs: dict[str, Any]
    tokens_in: int
    tokens_out: int
    cost_usd: float
    duration_s: float
    verdicts: list[VerdictIssued] = field(default_factory=list)
    # What of the run could not be recorded (events the store refused, a failing event sink): empty
    # when the trace is complete. The run's own status does not depend on it.
    recording_errors: list[str] = field(default_factory=list)


class Run:
    def __init__(self, plan: RunPlan, *, gateway: ChatGateway, inputs: dict[str, object] | None = None,
                 store: RunStore | None = None, model_overrides: dict[str, str] | None = None,
                 human: HumanPolicy | None = None, run_id: str | None = None,
                 tools: ToolRegistry | RunTools | None = None, memory: MemoryBackend | None = None,
                 lineage: Mapping[str, Any] | None = None) -> None:
        self.plan = plan
        self.run_id = run_id or uuid.uuid4().hex
        self.inputs = dict(inputs or {})
        self.overrides = dict(model_overrides or {})
        if self.overrides:
            _check_overrides(plan, self.overrides)
        self.hub = EventHub(self.run_id)
        self.control = RunControl()
        self._deadline = RunDeadline(plan.budget.deadline_s, self.hub.elapsed)  # stops while the run holds
        self._pauses = self.control.on_change = PauseAnnouncer(self.hub, self.control, self._deadline)
        self._gateway, self._store, self._human, self._tools, self._memory = gateway, store, human, tools, memory
        self._lineage = dict(lineage or {})  # replay_of / fork_of / fork_at_seq of RunStarted (engine.replay)
        self._task: asyncio.Task[RunResult] | None = None
        self._cancel_requested = False
        self._cancellable = False  # the task is inside the part of the run a cancel ends (see `cancel`)

    # -- watching ------------------------------------------------------------------------------
    def events(self) -> AsyncIterator[Event]:
        """An independent subscription to the whole event stream, from the first event."""
        return self.hub.subscribe()

    def event_batches(self) -> AsyncIterator[list[Event]]:
        """The same stream as `events()`, as lists: each holds every event new since the last one."""
        return self.hub.subscribe_batches()

    def state(self, node_id: str) -> NodeState | None:
        return self.hub.node_states.get(node_id)  # type: ignore[return-value]

    # -- control -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.ensure_future(self._main())

    async def wait(self) -> RunResult:
        self.start()
        assert self._task is not None
        return await asyncio.shield(self._task)

    def cancel(self) -> None:
        """End the run "cancelled" (in-flight calls cut, their spans closed, unfinished nodes marked
        cancelled, `RunFinished` recorded). Acts once: a cancel before the run began (even before
        `start()`) ends it before its first node; a repeated cancel, or one once the outcome is known,
        changes nothing — a task cancelled before it ran, or again while winding down, would skip that."""
        if self._cancel_requested:
            return
        self._cancel_requested = True
        if self._task is not None and self._cancellable:
            self._task.cancel()

    def pause(self) -> None:
        self.control.pause()

    def resume(self) -> None:
        self.control.resume()

    def step(self) -> None:
        self.control.step()

    def set_breakpoint(self, node_id: str, on: bool = True) -> None:
        (self.control.breakpoints.add if on else self.control.breakpoints.discard)(node_id)

    def submit_human_decision(self, node_id: str, decision: HumanChoice, edited: Any = None, reason: str = "") -> None:
        """Answer the human gate waiting at `node_id`; `reason` is kept in the trace with the decision."""
        self.control.decide(node_id, decision, edited, reason)

    # -- the run itself ------------------------------------------------------------------------
    async def _main(self) -> RunResult:
        with older_objects_set_aside():  # a run does not pay for collector passes over what it found
            return await self._execute()

    async def _execute(self) -> RunResult:
        plan, hub = self.plan, self.hub
        writer = self._open_store()
        services = RunServices(hub, self._gateway, BudgetTracker(plan.budget), self.control, plan.seed,
                         plan.concurrency, plan.workflow_id, self.overrides, self._human, self._tools,
                         self._memory_backend())
        span = hub.new_span("run")
        if writer is not None:
            hub.hold_subscribers()  # until RunStarted is committed (startup.begin_durably)
        self._deadline.start()  # the deadline counts from RunStarted, start-up checks included (pausing.py)
        hub.emit(RunStarted, span_id=span, workflow_id=plan.workflow_id, workflow_name=plan.workflow_name,
                 workflow_hash=plan.workflow_hash, inputs=dict(self.inputs),
                 settings=self._settings(services), **self._lineage)
        hub.emit(RunPlanned, span_id=span, nodes=[list(node) for node in plan_nodes(plan)])
        services.budget.deadline_elapsed = self._deadline.counted_s
        self._pauses.start(span)
        graph = GraphExecutor(services, plan, parent_span=span, inputs=self.inputs)
        status: RunStatus = "succeeded"
        reason = ""
        watch = DeadlineWatch(hub.node_states)  # the nodes the deadline cuts off, for the reason
        self._cancellable = True  # no await since `_execute` began: a cancel until here was only noted
        start_problem: str | None = None
        try:
            if self._cancel_requested:
                raise asyncio.CancelledError
            start_problem = await begin_durably(hub, writer, plan, self.overrides)  # startup.py
            if problems := await _missing_keys(plan, self.overrides, self._gateway):  # before anything is paid for
                raise _CannotStart("; ".join(problems))
            # in this task (not wait_for's own): the graph has wound down when the deadline's cut ends
            async with self._deadline.window() as window:
                watch.arm(window.when())
                self._deadline.on_moved = watch.arm  # a pause moves the deadline (pausing.py)
                await graph.execute()
            if graph.failures:
                status, reason = "failed", "; ".join(graph.failures)
            elif not graph.results and (missing := explain_no_result(graph, hub.history)):
                # Every Output was skipped (e.g. a final check that never approved): no result, no success;
                # the reason names what upstream held the value back (a rejection, a route, a verdict).
                status, reason = "failed", f"no result: {missing}"
        except BudgetHit as hit:
            status, reason = "budget_exceeded", str(hit)
            hub.emit(BudgetExceeded, span_id=span, budget=hit.budget, limit=hit.limit, actual=hit.actual,
                     node_id=hit.node_id)
        except TimeoutError:
            elapsed = self._deadline.counted_s()
            status, reason = "budget_exceeded", deadline_reason(plan, elapsed, watch.cut)
            hub.emit(BudgetExceeded, span_id=span, budget="deadline_s", limit=plan.budget.deadline_s,
                     actual=round(elapsed, 3))
        except _CannotStart as problem:
            status, reason = "failed", f"cannot start: {problem}"
        except asyncio.CancelledError:
            status, reason = "cancelled", "cancelled by the user"
        except Exception as exc:  # an engine bug must still end the run with a recorded reason
            status, reason = "failed", f"internal error: {type(exc).__name__}: {exc}"
        finally:
            watch.disarm()
            self._cancellable = False  # the outcome is known: a cancel from here on changes nothing
        if services.budget.exceeded is not None:  # its traceback's frames hold the tracker that holds it: a
            services.budget.exceeded.__traceback__ = None  # cycle keeping the run alive until the collector runs
        await _close_tools(services.tools)  # MCP servers stop before the run reports its end
        self._pauses.stop()
        usage = services.budget.total
        result = RunResult(self.run_id, status, reason, dict(graph.results), usage.tokens_in, usage.tokens_out,
                           usage.cost_usd, hub.elapsed(), list(services.verdicts))
        await check_contracts(hub, plan, span)
        hub.emit(RunFinished, span_id=span, status=status, reason=reason, outputs=result.outputs,
                 tokens_in=result.tokens_in, tokens_out=result.tokens_out, cost_usd=result.cost_usd,
                 duration_s=result.duration_s)
        hub.close()
        lost: list[str] = []
        if writer is not None:
            await end_durably(writer, plan.budget.deadline_s, self._deadline.counted_s())
            lost += writer.errors
        lost += (f"a run event consumer failed: {e}" for e in hub.sink_errors)
        lost += [start_problem] if start_problem else []
        return replace(result, recording_errors=lost) if lost else result

    def _settings(self, services: RunServices) -> dict[str, Any]:
        plan = self.plan
        settings = {"concurrency": plan.concurrency, "seed": plan.seed,
                    "budget": services.budget.limits.to_record(), "model_overrides": dict(self.overrides)}
        if plan.subplans:  # the versions the sub-graph nodes run (sub_graph_versions.py)
            settings[SUB_GRAPHS] = {path: version for path, (version, _) in sub_graph_documents(plan).items()}
        return settings

    def _open_store(self) -> EventRecorder | None:
        if self._store is None:
            return None
        writer = self._store.writer()
        store = self._store
        versions = [(self.plan.workflow_hash, self.plan.document)]
        versions += sub_graph_documents(self.plan).values()
        # The trace writer's thread stores the workflow versions (the run's and its sub-graphs') ahead of
        # the run's first event, off the run's start-up path; a failure shows in the run's
        # `recording_errors`, like a lost event.
        for version, document in versions:
            writer.call_in_order(partial(store.save_workflow, dict(document), workflow_hash=version),
                                 f"workflow version {version[:12]} not stored")
        self.hub.add_batch_sink(writer.append_many)  # one hand-off per batch
        return writer

    def _memory_backend(self) -> MemoryBackend:
        if self._memory is not None:
            return self._memory
        if self._store is not None:
            return StoreMemoryBackend(self._store)
        return InMemoryBackend()


async def _missing_keys(plan: RunPlan, overrides: Mapping[str, str], gateway: Any) -> list[str]:
    """`preflight.missing_keys`, in a worker thread when the gateway can tell (an OS keyring lookup
    may take a while, or wait on the user); nothing to ask otherwise."""
    if getattr(gateway, "missing_key", None) is None:
        return []
    return await asyncio.to_thread(missing_keys, plan, overrides, gateway)


class _CannotStart(Exception):
    """A model of the run cannot be called (e.g. its API key is missing): no node runs."""


def _check_overrides(plan: RunPlan, overrides: Mapping[str, str]) -> None:
    from engine.graph.format import workflow_from_dict
    from engine.runtime.plan import family_problems

    problems = family_problems(workflow_from_dict(dict(plan.document)), overrides)
    if problems:
        raise CompileError(problems)


async def execute(wf: Any, *, base_dir: Any = None, **kw: Any) -> RunResult:
    """Compile `wf` and run it to the end."""
    from engine.runtime.plan import compile_workflow

    return await Run(compile_workflow(wf, base_dir=base_dir), **kw).wait()


async def _close_tools(tools: ToolRegistry | RunTools | None) -> None:
    """Stop the MCP servers of the run's `RunTools`, if a node made one (a plain registry has none)."""
    if isinstance(tools, RunTools):
        await tools.close()  # RunTools.close gathers its servers' shutdowns with return_exceptions
