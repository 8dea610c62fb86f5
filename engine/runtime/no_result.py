"""Why a run's Output nodes received no value: the reason a run without a result ends with.

An Output gets no value when a node upstream decided so — a human gate rejected, a judge (critic /
verifier) without a revise loop did not approve, a router sent the value down another route, a
loop stopped at its bound — and every node between that one and the Output was skipped for want of
a required input. `explain_no_result` walks back from each Output through those skipped nodes (the
forward edges into their empty required ports) to the first node that did not pass a value on, and
names what it did, from the scheduler's final state (`status`, `values`, `last_outputs`) and the
run's events (its verdicts, its last warning, its failure detail).

Invariants: reads only — nothing of the run changes; every Output without a value is named, once,
Outputs sharing a cause share one clause; each node is visited at most once per Output (cycles and
diamonds end); a cause that cannot be found leaves the plain "received no value".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from engine.events import Event, LogMessage, NodeStateChanged, VerdictIssued
from engine.graph.naming import role_label
from engine.runtime.plan import PlanNode

if TYPE_CHECKING:
    from engine.runtime.scheduler import GraphExecutor

E = TypeVar("E", bound=Event)
Cause = tuple[str, list[str]]  # what a node did, and the nodes skipped after it (nearest it first)


def explain_no_result(graph: GraphExecutor, events: Sequence[Event]) -> str:
    """'Output 'Result' (result) received no value: <cause>' for each Output of `graph` that got none
    ('' when every Output got one, or there is none); Outputs with the same cause share one clause."""
    by_cause: dict[str, list[str]] = {}
    for nid in graph.plan.order:
        node = graph.plan.nodes[nid]
        if node.role != "output" or graph.status.get(nid) == "done":
            continue
        causes = "; ".join(_said(cause, skipped) for cause, skipped in _causes(graph, events, nid, {nid}))
        by_cause.setdefault(causes, []).append(name(node))
    return "; ".join(f"{', '.join(outputs)} received no value" + (f": {cause}" if cause else "")
                     for cause, outputs in by_cause.items())


def name(node: PlanNode) -> str:
    """A node as the user knows it: "Human gate 'Approve' (gate)"."""
    role = role_label(node.role)
    return f"{role} '{node.title}' ({node.id})" if node.title else f"{role} ({node.id})"


def _causes(graph: GraphExecutor, events: Sequence[Event], nid: str, seen: set[str]) -> list[Cause]:
    """Why `nid` got no value on its required inputs: for each empty one, what its sources did."""
    node, values = graph.plan.nodes[nid], graph.values.get(nid, {})
    found: list[Cause] = []
    for port in node.setup.required:
        if values.get(port):
            continue
        sources = [e for e in node.inputs if e.kind == "forward" and e.target_port == port]
        if not sources:
            found.append((f"{name(node)} has no edge into its input {port!r}", []))
        for edge in sources:
            if edge.source in seen:
                continue
            seen.add(edge.source)
            source = graph.plan.nodes[edge.source]
            if graph.status.get(edge.source) == "skipped":
                found += ((cause, [*skipped, name(source)]) for cause, skipped in _causes(graph, events, source.id, seen))
            else:
                found.append((f"{name(source)} {_decision(graph, events, source, edge.source_port)}", []))
    return found


def _said(cause: str, skipped: list[str]) -> str:
    """"<cause>", then the nodes skipped after it: "…, so A was skipped" / "…, so A and B were skipped"."""
    if not skipped:
        return cause
    if len(skipped) == 1:
        return f"{cause}, so {skipped[0]} was skipped"
    return f"{cause}, so {', '.join(skipped[:-1])} and {skipped[-1]} were skipped"


def _decision(graph: GraphExecutor, events: Sequence[Event], node: PlanNode, port: str) -> str:
    """What `node` (not skipped) did that left its `port` without a value."""
    key, state = graph.key(node.id), graph.status.get(node.id, "queued")
    if state == "failed":
        detail = _last(events, NodeStateChanged, key, lambda e: e.state == "failed")
        return "failed" + (f": {detail.detail}" if detail is not None and detail.detail else "")
    if state != "done":
        return f"was {state}"
    outputs = graph.last_outputs.get(node.id, {})
    if node.role == "router":
        routes = [p for p in outputs if p != port]
        return f"sent the value to {routes[0]!r}" if routes else f"sent the value to no route (not {port!r})"
    verdict = _last(events, VerdictIssued, key, lambda e: True)
    if verdict is not None and verdict.decision != "approve":
        if verdict.judge_model == "human":  # reasons: "human reject", then the person's why
            first, *why = verdict.reasons or ["human reject"]
            return f"rejected it ({first}" + (f": {'; '.join(why)})" if why else ")")
        reasons = "; ".join(verdict.reasons) or "no reasons given"
        return f"did not approve it ({verdict.decision}, score {verdict.score:.2f}: {reasons})"
    warning = _last(events, LogMessage, key, lambda e: e.level in ("warning", "error"))
    return f"gave no value on {port!r}" + (f" ({warning.message})" if warning is not None else "")


def _last(events: Sequence[Event], kind: type[E], node_key: str, match: Callable[[E], bool]) -> E | None:
    """The last event of `kind` about node `node_key` that `match`es."""
    for event in reversed(events):
        if isinstance(event, kind) and getattr(event, "node_id", None) == node_key and match(event):
            return event
    return None

