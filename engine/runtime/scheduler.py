"""Executes one graph (the run's workflow, or a sub-graph inside it) as an asyncio dataflow.

Invariants:
- a node starts when every forward input edge is resolved (delivered or dead); it is skipped when
  a required input got no value (its source failed, was skipped, or a router did not route there);
- every ready node runs concurrently (model and tool calls share the run's `concurrency` slots);
- back edges into a `feedback` port belong to their judge (critic / verifier), which re-runs the loop
  body itself; any other back edge that fires re-runs the loop body from its target up to the
  emitting node, at most the emitting node's loop bound (e.g. a router's `max_loops`) times;
- a node that fails all the same (its calls' retries and repairs spent) is handed to the recovery
  ladder (`recovery_ladder.py`: replan through the planner above it → ask a person → fail) before it counts
  as failed;
- a port fed by several edges gets their values in the order of its edges (the plan's), never in the
  order the sources finished: a run and its replay merge alike however parallel branches complete;
- node states go queued → running → (waiting) → done | failed | skipped | cancelled; every node of
  the plan is queued when its graph starts (`run.state()` says so; no event per node), each later
  state is announced by a `NodeStateChanged`;
- what an execution reads of its node (port sets, out-edges, loop bound, deadline) is the plan's
  `PlanNode.setup`, worked out once per plan.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.events import LogMessage, NodeState
from engine.runtime.context import NodeContext
from engine.runtime.loop_body import loop_body
from engine.runtime.plan import PlanEdge, PlanNode, RunPlan
from engine.runtime.recovery_ladder import recover
from engine.runtime.run_services import NodeFailed, RunServices

if TYPE_CHECKING:
    from engine.roles import RoleHandler

_YIELD_EVERY = 64  # nodes one task runs in a row before it lets the event loop run


class GraphExecutor:
    def __init__(self, services: RunServices, plan: RunPlan, *, parent_span: str, inputs: Mapping[str, Any],
                 prefix: str = "") -> None:
        self.services, self.plan, self.parent_span, self.inputs, self.prefix = services, plan, parent_span, inputs, prefix
        self.status: dict[str, str] = {}
        self.values: defaultdict[str, dict[str, list[Any]]] = defaultdict(dict)  # node → port → values in
        self._ranks: dict[tuple[str, str], list[int]] = {}  # (node, port) → the edge rank of each value in
        self._input_ranks: dict[str, dict[PlanEdge, int]] = {}  # by node: each input edge's place in its inputs
        self.pending: dict[str, int] = dict(plan.waits)  # by node: forward inputs not yet resolved
        self.last_inputs: dict[str, dict[str, Any]] = {}
        self.last_outputs: dict[str, dict[str, Any]] = {}  # by node: its latest execution's outputs
        self.results: dict[str, Any] = {}
        self.failures: list[str] = []
        self._regions: dict[tuple[str, str], tuple[str, ...]] = {}  # loop bodies, in order, worked out once

    def key(self, node_id: str) -> str:
        return self.prefix + node_id

    def _set_state(self, nid: str, state: NodeState, detail: str = "", span: str | None = None, round: int = 0) -> None:
        self.status[nid] = state
        self.services.hub.node_state(self.prefix + nid, state, span_id=span, parent_id=self.parent_span, round=round,
                                  detail=detail)

    async def execute(self) -> dict[str, Any]:
        """Run the graph to the end; the values of its output nodes by output name."""
        # every node starts queued: known from the plan, not announced per node
        self.status = dict.fromkeys(self.plan.order, "queued")
        states, prefix = self.services.hub.node_states, self.prefix
        states.update(((prefix + nid, "queued") for nid in self.plan.order) if prefix else self.status)
        self._running: dict[asyncio.Task[None], str] = {}  # node tasks running, by the node they started with
        self._finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._start([nid for nid in self.plan.order if self.pending[nid] == 0])
        if not self._running:
            return self.results
        try:
            await self._finished
        except BaseException:
            await self._stop()
            raise
        return self.results

    async def _stop(self) -> None:
        """Cancel the running node tasks, wait until every one has ended — also when this task is
        cancelled again meanwhile (a second cancel, a deadline), so nothing of the graph outlives the
        run's end — and mark every node not finished cancelled."""
        running = list(self._running)
        self._running.clear()
        for task in running:
            task.cancel()
        ended = asyncio.gather(*running, return_exceptions=True)
        while not ended.done():
            try:
                await asyncio.shield(ended)
            except asyncio.CancelledError:
                continue  # already winding down: the caller raises once every node task has ended
        for nid in self.plan.order:
            if self.status.get(nid) in ("queued", "running", "waiting"):
                self._set_state(nid, "cancelled")

    def _start(self, ready: list[str]) -> None:
        self._launch(self._admit(ready))

    def _launch(self, startable: list[str]) -> None:
        loop = asyncio.get_running_loop()
        for nid in startable:
            self._running[loop.create_task(self._drive(nid))] = nid

    async def _drive(self, nid: str) -> None:
        """Run `nid`, pass its outputs on, and go on in this task with the first node that made ready
        (the others get tasks of their own): a chain costs one task, not one per node. Every
        `_YIELD_EVERY` nodes in a row it lets the loop run, so a chain of instant nodes cannot hog it.
        The task reports its own end (`_ended`): no done-callback round through the loop per task."""
        try:
            in_a_row = 0
            while True:
                try:
                    outputs = await self._run_node(nid)
                except NodeFailed as exc:
                    try:  # replan → ask a human → fail (recovery_ladder.py)
                        outputs = await recover(self, nid, str(exc))
                    except NodeFailed as final:
                        self.failures.append(f"{self.plan.nodes[nid].label}: {final}")
                        outputs = {}
                ready = self._admit(self._deliver(nid, outputs))
                if not ready:
                    break
                nid = ready[0]
                if len(ready) > 1:
                    self._launch(ready[1:])
                in_a_row += 1
                if in_a_row % _YIELD_EVERY == 0:
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            self._ended(asyncio.CancelledError())
            raise
        except Exception as exc:  # ends the graph: `execute` raises it (held there, not in this task)
            self._ended(exc)
            return
        self._ended(None)

    def _ended(self, exc: BaseException | None) -> None:
        """A node task ended (O(1) per task: no wait() over every running task)."""
        if self._running.pop(asyncio.current_task(), None) is None or self._finished.done():  # type: ignore[arg-type]
            return
        if exc is not None:
            self._finished.set_exception(exc)
        elif not self._running:
            self._finished.set_result(None)

    def _admit(self, ready: list[str]) -> list[str]:
        """Ready nodes that may start; nodes missing a required input are skipped (and propagate)."""
        startable: list[str] = []
        index = 0
        while index < len(ready):  # `ready` grows as skips propagate
            nid = ready[index]
            index += 1
            values, required = self.values[nid], self.plan.nodes[nid].setup.required
            missing: list[str] = []
            for port in required:  # a loop, not a comprehension: no function frame per node
                if not values.get(port):
                    missing.append(port)
            if missing:
                self._set_state(nid, "skipped", f"no value for required input {', '.join(missing)}")
                ready += self._deliver(nid, {})
            else:
                startable.append(nid)
        return startable

    def _deliver(self, nid: str, outputs: Mapping[str, Any]) -> list[str]:
        """Pass `outputs` along forward edges (missing ports are dead edges); newly resolved targets."""
        resolved: list[str] = []
        values, pending = self.values, self.pending
        for edge in self.plan.nodes[nid].setup.forward:
            if edge.source_port in outputs:
                self._merge(values[edge.target].setdefault(edge.target_port, []), edge, outputs[edge.source_port])
            pending[edge.target] -= 1
            if pending[edge.target] == 0:
                resolved.append(edge.target)
        return resolved

    def _merge(self, into: list[Any], edge: PlanEdge, value: Any) -> None:
        """Put `value` among a port's values at its edge's place in the target's inputs (merges by key)."""
        ranks = self._ranks.setdefault((edge.target, edge.target_port), [])
        ranks_of = self._input_ranks.get(edge.target) or self._rank_inputs(edge.target)
        rank = ranks_of[edge]  # a lookup, not `inputs.index(edge)`: a fan-in of n edges was n² comparisons
        at = bisect.bisect_right(ranks, rank)
        ranks.insert(at, rank)
        into.insert(at, value)

    def _rank_inputs(self, nid: str) -> dict[PlanEdge, int]:
        ranks: dict[PlanEdge, int] = {}
        for k, edge in enumerate(self.plan.nodes[nid].inputs):
            ranks.setdefault(edge, k)  # the first place of an edge, as `inputs.index` gave it
        self._input_ranks[nid] = ranks
        return ranks

    def _inputs_of(self, node: PlanNode, values: Mapping[str, list[Any]]) -> dict[str, Any]:
        multiple = node.setup.multiple
        inputs: dict[str, Any] = {}
        for port, vals in values.items():  # a loop, not a comprehension: no function frame per node
            inputs[port] = vals if port in multiple else vals[-1]
        return inputs

    async def _run_node(self, nid: str) -> dict[str, Any]:
        node = self.plan.nodes[nid]
        control = self.services.control
        if control.holds(key := self.prefix + nid):
            await control.admit(key)
        outputs = await self.execute_node(nid, self._inputs_of(node, self.values[nid]))
        if not node.setup.loops:
            return outputs
        bound = node.setup.loop_bound
        loops = 0
        while True:
            fired = [e for e in node.setup.loops if e.source_port in outputs]
            if not fired:
                return outputs
            if loops >= bound:
                self.services.hub.emit(LogMessage, parent_id=self.parent_span, node_id=self.key(nid), level="warning",
                                    message=f"{node.label} reached its loop bound ({bound}); the loop stops here")
                return {p: v for p, v in outputs.items() if p not in {e.source_port for e in fired}}
            loops += 1
            edge = fired[0]
            outputs = await self.rerun_region(edge.target, nid, start_inputs={edge.target_port: outputs[edge.source_port]},
                                              round=loops)

    async def execute_node(self, nid: str, inputs: dict[str, Any], *, round: int = 0,
                           feedback: Mapping[str, Any] | None = None) -> dict[str, Any]:
        node, key, hub = self.plan.nodes[nid], self.prefix + nid, self.services.hub
        span = hub.new_span("node", key)
        self.status[nid] = "running"
        hub.node_state(key, "running", span_id=span, parent_id=self.parent_span, round=round)
        ctx = NodeContext(self.services, self, node, inputs, span, round, feedback, key=key)
        try:
            limit = node.setup.deadline_s
            if limit is None:  # not a number: fails here, as it always did
                limit = float(node.param("deadline_s") or 0.0)
            handler = _HANDLERS.get(node.role) or _handler(node.role)
            work = handler(ctx)
            outputs = await (self.services.budget.within_deadline(work, limit, key, "node") if limit else work)
        except asyncio.CancelledError:
            self._set_state(nid, "cancelled", span=span, round=round)
            raise
        except NodeFailed as exc:
            self._set_state(nid, "failed", str(exc), span=span, round=round)
            raise
        except Exception as exc:  # budget hits end the run; anything else fails this node clearly
            from engine.runtime.budget import BudgetHit

            self._set_state(nid, "failed", f"{type(exc).__name__}: {exc}", span=span, round=round)
            if isinstance(exc, BudgetHit):
                raise
            raise NodeFailed(f"{type(exc).__name__}: {exc}") from exc
        self.last_inputs[nid] = inputs
        return self.finish(nid, outputs, span=span, round=round)

    def finish(self, nid: str, outputs: dict[str, Any], *, span: str, round: int) -> dict[str, Any]:
        """An execution of `nid` ended with `outputs` (its role's, or given by a person): announced, kept."""
        node, key, hub = self.plan.nodes[nid], self.prefix + nid, self.services.hub
        self.last_outputs[nid] = outputs
        for port, value in outputs.items():
            hub.node_output(key, port, value, span_id=span, parent_id=self.parent_span, round=round)
        if node.role == "output":
            self.results[str(node.param("name") or nid)] = outputs.get("value")
        self.status[nid] = "done"
        hub.node_state(key, "done", span_id=span, parent_id=self.parent_span, round=round)
        return outputs

    def mark_failed(self, nid: str, detail: str, *, span: str, round: int) -> None:
        self._set_state(nid, "failed", detail, span=span, round=round)

    def inputs_for(self, nid: str) -> dict[str, Any]:
        """What `nid` gets from its inputs now (each port's value; a list for ports that take every value)."""
        return self._inputs_of(self.plan.nodes[nid], self.values[nid])

    async def rerun_region(self, start: str, end: str, *, feedback: Mapping[str, Any] | None = None,
                           start_inputs: Mapping[str, Any] | None = None, round: int = 0) -> dict[str, Any]:
        """Re-execute the loop body: the nodes on forward paths from `start` to `end`, in order."""
        region = self._regions.get((start, end))
        if region is None:
            region = self._regions[(start, end)] = loop_body(self.plan, start, end)
        fresh: dict[str, dict[str, Any]] = {}
        for nid in region:
            node = self.plan.nodes[nid]
            inputs = dict(self.last_inputs.get(nid, {}))
            for edge in node.inputs:
                if edge.kind != "forward" or edge.source not in fresh:
                    continue
                if edge.target_port in node.setup.multiple:  # a list of every edge's value, as the first time
                    inputs[edge.target_port] = self._gathered(node, edge.target_port, fresh)
                elif edge.source_port in fresh[edge.source]:
                    inputs[edge.target_port] = fresh[edge.source][edge.source_port]
            if nid == start and start_inputs:
                inputs.update(start_inputs)
            await self.services.control.admit(self.key(nid))
            fresh[nid] = await self.execute_node(nid, inputs, round=round, feedback=feedback if nid == start else None)
        return fresh.get(end, {})

    def _gathered(self, node: PlanNode, port: str, fresh: Mapping[str, Mapping[str, Any]]) -> list[Any]:
        """The values a port that takes every value gets when its loop body runs again: each forward
        edge's, in edge order — from a source that ran again its new output, else its last one."""
        values: list[Any] = []
        for edge in node.inputs:
            if edge.kind == "forward" and edge.target_port == port:
                outputs = fresh[edge.source] if edge.source in fresh else self.last_outputs.get(edge.source, {})
                if edge.source_port in outputs:
                    values.append(outputs[edge.source_port])
        return values


def _handler(role: str) -> RoleHandler:
    """The role's implementation (`engine.roles` imports the runtime, so it is looked up late, once)."""
    try:
        return _HANDLERS[role]
    except KeyError:
        from engine.roles import handler_for

        found = _HANDLERS[role] = handler_for(role)
        return found


_HANDLERS: dict[str, RoleHandler] = {}
