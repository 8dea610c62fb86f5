"""Compiling an editable `Workflow` into a frozen `RunPlan` — what a run executes.

Invariants: compiling validates (any error-severity `Problem` → `CompileError`), deep-copies every
parameter with role defaults filled in, and resolves sub-graphs recursively, so a run never sees
later edits to the workflow. Edges are classified once: `back` edges close a cycle (found by a DFS
from the graph's sources), every other edge is `forward`; `order` is a topological order of the
forward edges. Each `PlanNode` carries its `setup`: what every execution reads of it, worked out
once (`nodesetup.py`).

A judge (critic / verifier) with a revise loop owns its author's output: every other forward edge
from the author's judged port is re-sourced at compile time to the judge's approved port, so those
consumers wait for the loop to end and get the final (approved, or best-so-far once a human
approves it) artifact, never the first draft. An edge is left alone when its target feeds the judge
(re-sourcing it would close a cycle).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from engine.budget import Budget
from engine.graph.family_checks import family_problems
from engine.graph.format import document_hash, workflow_to_dict
from engine.graph.model import Workflow
from engine.graph.problems import Problem, error
from engine.graph.validate import validate
from engine.runtime.nodesetup import NodeSetup, node_setup, role_facts
from engine.runtime.plan_judges import JudgeWiring

__all__ = ["CompileError", "PlanEdge", "PlanNode", "RunPlan", "compile_workflow", "family_problems"]


class CompileError(Exception):
    """The workflow cannot run; `problems` says what is wrong and where."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("Cannot run the workflow:\n" + "\n".join(f"  - {p.message}" for p in self.problems))


@dataclass(frozen=True, slots=True)
class PlanEdge:
    id: str
    source: str
    source_port: str
    target: str
    target_port: str
    kind: Literal["forward", "back"] = "forward"


@dataclass(frozen=True, slots=True)
class PlanNode:
    id: str
    role: str
    title: str
    params: Mapping[str, Any]
    inputs: tuple[PlanEdge, ...] = ()
    outputs: tuple[PlanEdge, ...] = ()
    setup: NodeSetup = field(init=False, repr=False, compare=False)  # derived from the above, once

    def __post_init__(self) -> None:
        object.__setattr__(self, "setup", node_setup(self))  # frozen: set once, here

    def param(self, name: str) -> Any:
        return self.params.get(name)

    @property
    def label(self) -> str:
        return f"{self.title or self.role} ({self.id})"


@dataclass(frozen=True, slots=True)
class RunPlan:
    workflow_id: str
    workflow_name: str
    workflow_hash: str
    document: Mapping[str, Any]
    budget: Budget  # the workflow's run settings' own (a `Budget` never changes)
    concurrency: int
    seed: int
    nodes: Mapping[str, PlanNode]
    order: tuple[str, ...]
    subplans: Mapping[str, RunPlan] = field(default_factory=lambda: MappingProxyType({}))
    # each node's count of forward inputs (what a run copies to count them down), derived once
    waits: Mapping[str, int] = field(init=False, repr=False, compare=False)
    # each node's place in `order` (what bounds a search for the nodes between two), derived once
    positions: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        waits = {nid: node.setup.waits_for for nid, node in self.nodes.items()}
        object.__setattr__(self, "waits", MappingProxyType(waits))
        object.__setattr__(self, "positions", MappingProxyType({nid: k for k, nid in enumerate(self.order)}))


_MAX_DEPTH = 8


def compile_workflow(wf: Workflow, *, base_dir: Path | None = None,
                     recorded: Mapping[str, Mapping[str, Any]] | None = None,
                     _seen: tuple[str, ...] = (), _prefix: str = "") -> RunPlan:
    """Validate and freeze `wf`; `base_dir` resolves sub-graph paths (default: the working directory).
    `recorded` maps a sub-graph node's path ("sub", "sub/inner") to the document a recorded run used for
    it (`engine.runtime.sub_graph_versions`): that document is compiled instead of today's file."""
    problems = [p for p in validate(wf) if p.severity == "error"]
    if problems:
        raise CompileError(problems)
    subplans = {nid: _compile_subgraph(wf, nid, base_dir, _seen, recorded or {}, _prefix)
                for nid, n in wf.nodes.items() if n.role == "subgraph"}
    document = workflow_to_dict(wf)  # a fresh copy of plain JSON values: later edits never reach the run
    # the nodes' own copy of their params (one JSON round trip, not a deepcopy per node)
    params = {n["id"]: n["params"] for n in json.loads(json.dumps([
        {"id": n["id"], "params": n["params"]} for n in document["nodes"]]))}
    nodes, order = _freeze_graph(wf, params)
    return RunPlan(
        workflow_id=wf.id or wf.name, workflow_name=wf.name, workflow_hash=document_hash(document),
        document=document,
        budget=wf.settings.budget,
        concurrency=max(1, int(wf.settings.concurrency)), seed=int(wf.settings.seed),
        nodes=MappingProxyType(nodes), order=order, subplans=MappingProxyType(subplans))


def _freeze_graph(wf: Workflow, own_params: Mapping[str, dict[str, Any]]) -> tuple[dict[str, PlanNode], tuple[str, ...]]:
    back = _back_edges(wf)
    edges = _through_judges(wf, [PlanEdge(e.id, e.source, e.source_port, e.target, e.target_port,
                                          "back" if e.id in back else "forward") for e in wf.edges.values()])
    into: dict[str, list[PlanEdge]] = {nid: [] for nid in wf.nodes}
    out_of: dict[str, list[PlanEdge]] = {nid: [] for nid in wf.nodes}
    for edge in edges:  # one pass (not a scan of every edge per node: plans of thousands of nodes)
        into[edge.target].append(edge)
        out_of[edge.source].append(edge)
    nodes: dict[str, PlanNode] = {}
    for node in wf.nodes.values():
        params = role_facts(node.role).fresh_defaults()
        params.update(own_params[node.id])
        nodes[node.id] = PlanNode(node.id, node.role, node.title, MappingProxyType(params),
                                  tuple(into[node.id]), tuple(out_of[node.id]))
    return nodes, _topological(nodes)


def _through_judges(wf: Workflow, edges: list[PlanEdge]) -> list[PlanEdge]:
    """Re-source the author's other consumers at each looping judge's approved port (see module doc)."""
    return JudgeWiring({nid: n.role for nid, n in wf.nodes.items()}, edges).rewire()


def _back_edges(wf: Workflow) -> set[str]:
    out: dict[str, list[tuple[str, str]]] = {nid: [] for nid in wf.nodes}
    indegree = dict.fromkeys(wf.nodes, 0)
    for e in wf.edges.values():
        out[e.source].append((e.id, e.target))
        indegree[e.target] += 1
    roots = [n for n in wf.nodes if indegree[n] == 0] + list(wf.nodes)
    colour: dict[str, int] = {}  # 1 = on the DFS stack, 2 = finished
    back: set[str] = set()
    for root in roots:
        if root in colour:
            continue
        colour[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            nid, it = stack[-1]
            step = next(it, None)
            if step is None:
                colour[nid] = 2
                stack.pop()
            elif colour.get(step[1]) == 1:
                back.add(step[0])
            elif step[1] not in colour:
                colour[step[1]] = 1
                stack.append((step[1], iter(out[step[1]])))
    return back


def _topological(nodes: Mapping[str, PlanNode]) -> tuple[str, ...]:
    indegree = {nid: sum(e.kind == "forward" for e in n.inputs) for nid, n in nodes.items()}
    ready = [nid for nid, d in indegree.items() if d == 0]
    order: list[str] = []
    while ready:
        nid = ready.pop(0) if len(ready) < 64 else ready.pop()
        order.append(nid)
        for e in nodes[nid].outputs:
            if e.kind == "forward":
                indegree[e.target] -= 1
                if indegree[e.target] == 0:
                    ready.append(e.target)
    return tuple(order)


def _compile_subgraph(wf: Workflow, node_id: str, base_dir: Path | None, seen: tuple[str, ...],
                      recorded: Mapping[str, Mapping[str, Any]], prefix: str) -> RunPlan:
    from engine.graph.format import load_workflow, workflow_from_dict
    from engine.graph.problems import WorkflowFileError

    node = wf.nodes[node_id]
    path = str(node.param("path") or "")
    where = f"Sub-graph '{node.title or node_id}' ({node_id})"
    key = str((base_dir or Path.cwd()) / path) if path else f"{'/'.join(seen)}/{node_id}"
    if len(seen) >= _MAX_DEPTH or (path and key in seen):
        raise CompileError([error("subgraph_recursion", f"{where} nests too deep or includes itself ({key})",
                                  node_id=node_id, field="params.path")])
    try:
        if prefix + node_id in recorded:
            inner = workflow_from_dict(dict(recorded[prefix + node_id]), source=f"{where}, as recorded")
        else:
            inner = load_workflow(key) if path else workflow_from_dict(node.param("graph"), source=where)
    except WorkflowFileError as exc:
        source = f"{where}, file {key}" if path else where  # which file, when it is one
        raise CompileError([error(p.code, f"{source}: {p.message}", node_id=node_id, field="params.path" if path
                                  else "params.graph") for p in exc.problems]) from exc
    inner_dir = Path(key).parent if path else base_dir
    try:
        return compile_workflow(inner, base_dir=inner_dir, recorded=recorded, _seen=(*seen, key),
                                _prefix=f"{prefix}{node_id}/")
    except CompileError as exc:
        raise CompileError([error(p.code, f"{where}: {p.message}", node_id=node_id) for p in exc.problems]) from exc
