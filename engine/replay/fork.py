"""Forking a recorded run at a node's execution: everything before the fork point is served from the
recording, the node and everything downstream of it runs live, with the node's prompt, model or
parameters changed as asked.

- `fork_point(events, "node#n")`: the n-th execution (from 1) of the node in the source run and the
  seq where it began (`RunStarted.fork_at_seq` of the fork); `ForkError` when it never ran that often;
  `fork_point(events, "123")`: the execution the event with seq 123 happened in (a fork starts at a
  node's execution: what that execution did before the event runs again, live);
- `downstream(document, node)`: the node and every node reachable from it along edges (loops
  included; for a sub-graph's inner node "sub/inner", what follows the sub-graph node);
- `edited_document(document, node, ...)`: the recorded version with the node's edits (an inner node
  "sub/inner" is edited in the version of the sub-graph the run recorded, `ReplaySource.sub_graphs`;
  a run recorded before those were kept cannot have its inner nodes edited);
- `prepare_fork(source, at, ...)`: a `ReplaySetup` in fork mode whose gateway turns live at the first
  call of a downstream node that the source made after the fork point (or never made).

Invariant: a call of a node that is not downstream is served from the recording as in a replay (and
goes live only if it diverges); nothing before the fork point is asked of a provider.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.replay.gateway import ReplayGateway
from engine.replay.rerun import ReplayError, ReplaySetup, ReplaySource, prepare_replay

if TYPE_CHECKING:
    from engine.llm.types import ChatGateway
    from engine.runtime.control import HumanPolicy
    from engine.store import TraceStore


class ForkError(ReplayError):
    """The fork point or an edit does not fit the recorded run."""


@dataclass(frozen=True, slots=True)
class ForkPoint:
    node_id: str
    execution: int
    seq: int


def parse_at(text: str) -> tuple[str, int]:
    node, _, number = text.partition("#")
    if not node:
        raise ForkError(f"--at {text!r}: expected NODE or NODE#EXECUTION")
    try:
        execution = int(number) if number else 1
    except ValueError:
        raise ForkError(f"--at {text!r}: the execution after '#' must be a whole number") from None
    if execution < 1:
        raise ForkError(f"--at {text!r}: executions count from 1")
    return node, execution


def fork_point(events: Iterable[ev.Event], at: str) -> ForkPoint:
    """`at` is "NODE", "NODE#N", or an event's seq: the execution of a node that event belongs to."""
    events = list(events)
    if at.isdigit():
        at = _execution_of(events, int(at))
    node, execution = parse_at(at)
    starts: dict[str, int] = {}  # the node's executions: span → seq where it first ran
    seen: set[str] = set()
    for e in events:
        if isinstance(e, ev.NodeStateChanged):
            seen.add(e.node_id)
            if e.node_id == node and e.state == "running" and e.span_id and e.span_id not in starts:
                starts[e.span_id] = e.seq
    if node not in seen:
        known = ", ".join(sorted(seen)) or "none"
        raise ForkError(f"--at {at}: the run has no node {node!r} (its nodes: {known})")
    if len(starts) < execution:
        raise ForkError(f"--at {at}: {node} ran {len(starts)} time(s) in this run")
    return ForkPoint(node, execution, sorted(starts.values())[execution - 1])


def _execution_of(events: list[ev.Event], seq: int) -> str:
    """"NODE#N" for the node execution the event `seq` happened in (a call's event: its node's)."""
    executions: dict[str, tuple[str, int]] = {}  # node span → (node, its execution number)
    counts: dict[str, int] = {}
    for e in events:
        if isinstance(e, ev.NodeStateChanged) and e.state == "running" and e.span_id and e.span_id not in executions:
            counts[e.node_id] = counts.get(e.node_id, 0) + 1
            executions[e.span_id] = (e.node_id, counts[e.node_id])
        if e.seq == seq:
            for span in (e.span_id, e.parent_id):
                if span in executions:
                    node, number = executions[span]
                    return f"{node}#{number}"
            raise ForkError(f"--at {seq}: event {seq} ({e.kind}) is not inside a node's execution")
    raise ForkError(f"--at {seq}: the run has no event {seq}")


def downstream(document: Mapping[str, Any], node: str) -> set[str]:
    """`node` and every node reachable from it (from its sub-graph node, for an inner node)."""
    following: dict[str, set[str]] = {}
    for edge in document.get("edges") or []:
        following.setdefault(str(edge.get("source")), set()).add(str(edge.get("target")))
    seen: set[str] = set()
    todo = list(following.get(node.split("/", 1)[0], ()))
    while todo:
        nid = todo.pop()
        if nid not in seen:
            seen.add(nid)
            todo.extend(following.get(nid, ()))
    return seen | {node}


def edited_document(document: Mapping[str, Any], node: str, *, model: str | None = None, prompt: str | None = None,
                    params: Mapping[str, str] | None = None) -> dict[str, Any]:
    doc = copy.deepcopy(dict(document))
    target = next((n for n in doc.get("nodes") or [] if n.get("id") == node.split("/", 1)[0]), None)
    if target is None:
        raise ForkError(f"the recorded workflow has no node {node!r}")
    if "/" in node and (model or prompt or params):
        raise ForkError(f"{node}: the run did not record its sub-graph's version (it predates that), so its "
                        "inner nodes cannot be edited; fork without edits")
    own = target.setdefault("params", {})
    if model:
        own["model"] = model
    if prompt is not None:
        own["prompt" if "prompt" in own else "system_prompt"] = prompt
    for key, text in (params or {}).items():
        try:
            own[key] = json.loads(text)
        except ValueError:
            own[key] = text
    return doc


def prepare_fork(store: TraceStore, source: ReplaySource, at: str, *, live: ChatGateway,
                 model: str | None = None, prompt: str | None = None, params: Mapping[str, str] | None = None,
                 base_dir: Path | None = None, human: HumanPolicy | None = None) -> tuple[ReplaySetup, ForkPoint]:
    kinds = None if at.isdigit() else ["node_state"]  # an event's seq: every event, to find its node
    point = fork_point(store.iter_events(source.run.id, kinds=kinds), at)
    after = downstream(source.document, point.node_id)
    inner = point.node_id.split("/", 1)[0] + "/" if "/" in point.node_id else None
    # the node keys of downstream calls: sub-graph nodes downstream bring their inner nodes (and a fork
    # inside a sub-graph the rest of that sub-graph)
    after |= {n for n in _call_nodes(source) if n.split("/", 1)[0] in after or (inner and n.startswith(inner))}
    recorded = source.recording.llm

    def turns_live(node: str, key: str) -> bool:
        if node not in after:
            return False
        call = recorded.get(key)
        return call is None or call.started_seq > point.seq

    gateway = ReplayGateway(source.recording, mode="fork", live=live, fork_at=turns_live, downstream=after)
    path, _, inner_id = point.node_id.rpartition("/")
    if path in source.sub_graphs:  # an inner node: its edits go to the sub-graph version the run recorded
        edited = edited_document(source.sub_graphs[path], inner_id, model=model, prompt=prompt, params=params)
        source = replace(source, sub_graphs={**source.sub_graphs, path: edited})
        document = copy.deepcopy(source.document)
    else:
        document = edited_document(source.document, point.node_id, model=model, prompt=prompt, params=params)
    setup = prepare_replay(source, mode="fork", live=live, base_dir=base_dir, document=document, gateway=gateway,
                           lineage={"fork_of": source.run.id, "fork_at_seq": point.seq}, human=human)
    if problems := _missing_keys(setup, after, live):
        raise ForkError("the nodes the fork runs live cannot call their models: " + "; ".join(problems))
    return setup, point


def _missing_keys(setup: ReplaySetup, after: set[str], live: ChatGateway) -> list[str]:
    """What keeps the models of the nodes the fork runs live from being called (an API key missing),
    before anything runs — the nodes served from the recording need no key."""
    from engine.runtime.preflight import models_in_use

    check = getattr(live, "missing_key", None)
    if check is None:
        return []
    plan = setup.plan
    live_labels = {plan.nodes[nid].label for nid in plan.order if nid in after}
    problems: dict[str, list[str]] = {}
    for use in models_in_use(plan, setup.overrides):
        if use.node.split(" › ", 1)[0] in live_labels and (problem := check(use.model, use.api_base)):
            problems.setdefault(str(problem), []).append(use.node)
    return [f"{', '.join(nodes)}: {problem}" for problem, nodes in problems.items()]


def _call_nodes(source: ReplaySource) -> set[str]:
    return {call.node_id for call in source.recording.llm.values()}
