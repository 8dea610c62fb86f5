"""The recovery ladder's upper rungs for a node that failed: replan → ask a human → fail.

The lower rungs live where the failure happens: a model call is retried with backoff (the gateway,
then `llmcall`), a malformed plan or verdict gets a repair call (`roles.parsing`), a judge's revise
loop repairs an artifact with its feedback (`roles.review`). When a node fails all the same, the
scheduler hands it here before counting it as failed:

1. Replan: the nearest planner upstream of the failed node re-runs with the failure as its
   feedback (a reject verdict whose reasons name the node and the error), and the nodes from it to
   the failed node run again — at most the planner's `max_replans` per run, shared with the
   replans its critics ask for.
2. Ask a human (when the run has a `HumanPolicy`, as a judge's unapproved loop does): approve tries
   the node once more, edit gives its result by hand (its one output port), reject fails it.
3. Fail: `NodeFailed` with the last error, and what was tried.

Judges (critic, verifier, human gate) run their own ladder and are never handed here, nor are
nodes with nothing to recover (input, output). Every step is announced: a warning `LogMessage` of
the failed node says what is tried next. Every loop is bounded, so a run still always ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.events import LogMessage
from engine.runtime.context import NodeContext
from engine.runtime.plan import PlanNode
from engine.runtime.run_services import NodeFailed

if TYPE_CHECKING:
    from engine.runtime.scheduler import GraphExecutor

OWN_LADDER = frozenset({"critic", "verifier", "human_gate", "input", "output"})


async def recover(graph: GraphExecutor, nid: str, error: str) -> dict[str, Any]:
    """The failed node's outputs once a rung succeeds; raises `NodeFailed` when none does. Takes the
    failure's message, not the exception: a frame holding an exception its traceback holds is a
    reference cycle, which would keep the run's whole history alive until the cycle collector runs."""
    node = graph.plan.nodes[nid]
    if node.role in OWN_LADDER:
        raise NodeFailed(error)
    tried: list[str] = []
    last_round = 0
    planner = nearest_planner(graph.plan.nodes, nid, including_start=False)
    while planner is not None and may_replan(graph, planner):
        count = last_round = count_replan(graph, planner)
        _announce(graph, nid, f"{node.label} failed: {error}; replanning through {planner.label} "
                              f"({count} of {int(planner.param('max_replans') or 0)})")
        feedback = {"decision": "reject", "score": 0.0, "reasons": [f"{node.label} failed: {error}"],
                    "claims": [], "failed": nid}
        try:
            outputs = await graph.rerun_region(planner.id, nid, feedback=feedback, round=count)
        except NodeFailed as exc:
            error = str(exc)
            tried.append(f"replan {count}")
            continue
        return outputs
    if graph.services.human is not None:
        return await _ask_human(graph, node, error, tried, last_round + 1)
    raise NodeFailed(_final(error, tried))


async def _ask_human(graph: GraphExecutor, node: PlanNode, error: str, tried: list[str],
                     round: int) -> dict[str, Any]:
    port = _main_port(node)
    inputs = graph.inputs_for(node.id)
    span = graph.services.hub.new_span("node", graph.key(node.id))
    ctx = NodeContext(graph.services, graph, node, inputs, span, round, key=graph.key(node.id))
    edit_hint = f", edit to give its {port!r} yourself" if port else ""
    question = (f"{node.label} failed: {error}. Approve to try it once more{edit_hint}, "
                f"or reject to fail it.")
    answer = await ctx.ask_human(question, None, then_running=False)  # its next state follows from the answer
    if answer.decision == "approve":
        return await graph.execute_node(node.id, inputs, round=round)
    if answer.decision == "edit" and port:
        return graph.finish(node.id, {port: answer.edited}, span=span, round=round)
    said = f"; rejected when asked: {answer.reason}" if answer.reason.strip() else "; rejected when asked"
    final = _final(error, tried) + said
    graph.mark_failed(node.id, final, span=span, round=round)
    raise NodeFailed(final)


def _main_port(node: PlanNode) -> str | None:
    """The node's one output port, when its role has exactly one (executor `result`, map `results`, …)."""
    from engine.graph.roles import role_spec

    spec = role_spec(node.role)
    outputs = [p.name for p in spec.outputs] if spec is not None else []
    return outputs[0] if len(outputs) == 1 else None


def nearest_planner(nodes: Mapping[str, PlanNode], start: str, *, including_start: bool) -> PlanNode | None:
    """The nearest planner above `start` on forward inputs (breadth first), or `start` itself when it
    is one and `including_start`: the node a replan re-runs (here, and for a judge's reject)."""
    if including_start and nodes[start].role == "planner":
        return nodes[start]
    seen, frontier = {start}, [start]
    while frontier:
        for edge in nodes[frontier.pop(0)].inputs:
            if edge.kind != "forward" or edge.source in seen:
                continue
            if nodes[edge.source].role == "planner":
                return nodes[edge.source]
            seen.add(edge.source)
            frontier.append(edge.source)
    return None


def may_replan(graph: GraphExecutor, planner: PlanNode) -> bool:
    """Whether `planner` has a replan left (its `max_replans` per run, failures and judges alike)."""
    return graph.services.replans.get(graph.key(planner.id), 0) < int(planner.param("max_replans") or 0)


def count_replan(graph: GraphExecutor, planner: PlanNode) -> int:
    """Count one replan of `planner`; how many it has had in this run."""
    key = graph.key(planner.id)
    graph.services.replans[key] = count = graph.services.replans.get(key, 0) + 1
    return count


def _announce(graph: GraphExecutor, nid: str, message: str) -> None:
    graph.services.hub.emit(LogMessage, parent_id=graph.parent_span, node_id=graph.key(nid), level="warning",
                         message=message)


def _final(error: str, tried: list[str]) -> str:
    return f"{error} (also after {', '.join(tried)})" if tried else error
