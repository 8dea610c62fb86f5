"""Workflows of one exact shape, for benchmarks and scaling tests: executors (and critics) wired as a
chain, a fan, a lattice, a binary tree with its mirrored fan-in, or executor → critic pairs whose
verdicts loop back.

Every shape is described once as a `Shape` — its node ids (each "x…" an executor, each "c…" a critic)
and its edges as (source, source port, target, target port) — so the engine's workflow and a peer's
equivalent graph (the LangGraph benchmark builds its own from the same `Shape`) cannot drift apart.
Invariant: `shape_workflow(shape)` validates with no error; the same arguments give the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.graph.model import Edge, Node, NodeUi, Workflow

Wire = tuple[str, str, str, str]  # source, source port, target, target port


@dataclass
class Shape:
    name: str
    executors: list[str] = field(default_factory=list)
    critics: list[str] = field(default_factory=list)
    wires: list[Wire] = field(default_factory=list)
    concurrency: int = 8


def chain(n: int) -> Shape:
    shape = Shape(f"chain-{n}", [f"x{i}" for i in range(n)])
    shape.wires = [("in", "value", "x0", "task"), *((f"x{i - 1}", "result", f"x{i}", "task") for i in range(1, n)),
                   (f"x{n - 1}", "result", "out", "value")]
    return shape


def fan(n: int) -> Shape:
    shape = Shape(f"fan-{n}", [*(f"x{i}" for i in range(n)), "join"], concurrency=n)
    for i in range(n):
        shape.wires += [("in", "value", f"x{i}", "task"), (f"x{i}", "result", "join", "context")]
    shape.wires += [("in", "value", "join", "task"), ("join", "result", "out", "value")]
    return shape


def lattice(layers: int, width: int) -> Shape:
    """`layers` layers of `width` executors; each fed by two of the layer before (the one below it as
    its task, its right-hand neighbour's as context); the last layer joined into one executor."""
    shape = Shape(f"lattice-{layers}x{width}", [f"x{k}_{j}" for k in range(layers) for j in range(width)],
                  concurrency=width)
    for j in range(width):
        shape.wires.append(("in", "value", f"x0_{j}", "task"))
        for k in range(1, layers):
            shape.wires += [(f"x{k - 1}_{j}", "result", f"x{k}_{j}", "task"),
                            (f"x{k - 1}_{(j + 1) % width}", "result", f"x{k}_{j}", "context")]
        shape.wires.append((f"x{layers - 1}_{j}", "result", "join", "context"))
    shape.executors.append("join")
    shape.wires += [("in", "value", "join", "task"), ("join", "result", "out", "value")]
    return shape


def tree(depth: int) -> Shape:
    """A binary fan-out of `depth` levels (2**(depth-1) leaves), then its mirror: each fan-in executor
    joins two (its task from one, context from the other) down to one root."""
    shape = Shape(f"tree-{depth}", concurrency=2 ** (depth - 1))
    for level in range(depth):
        for i in range(2 ** level):
            shape.executors.append(f"xo{level}_{i}")
            source = ("in", "value") if level == 0 else (f"xo{level - 1}_{i // 2}", "result")
            shape.wires.append((*source, f"xo{level}_{i}", "task"))
    below = [f"xo{depth - 1}_{i}" for i in range(2 ** (depth - 1))]
    for level in range(depth - 2, -1, -1):
        for i in range(2 ** level):
            shape.executors.append(f"xi{level}_{i}")
            shape.wires += [(below[2 * i], "result", f"xi{level}_{i}", "task"),
                            (below[2 * i + 1], "result", f"xi{level}_{i}", "context")]
        below = [f"xi{level}_{i}" for i in range(2 ** level)]
    shape.wires.append((below[0], "result", "out", "value"))
    return shape


def critic_pairs(n: int) -> Shape:
    """`n` executor → critic pairs in a row: each critic judges its executor's result, sends its verdict
    back to it as feedback (a revise loop) and passes the approved result on to the next pair."""
    shape = Shape(f"critic-pairs-{n}", [f"x{i}" for i in range(n)], [f"c{i}" for i in range(n)])
    for i in range(n):
        source = ("in", "value") if i == 0 else (f"c{i - 1}", "approved")
        shape.wires += [(*source, f"x{i}", "task"), (f"x{i}", "result", f"c{i}", "subject"),
                        (f"c{i}", "verdict", f"x{i}", "feedback")]
    shape.wires.append((f"c{n - 1}", "approved", "out", "value"))
    return shape


def shape_workflow(shape: Shape) -> Workflow:
    wf = Workflow(shape.name, id=f"shape-{shape.name}")
    wf.settings.concurrency = shape.concurrency
    wf.add_node(Node("in", "input", params={"name": "goal", "default": "go"}, ui=NodeUi()))
    wf.add_node(Node("out", "output", params={"name": "result"}, ui=NodeUi()))
    for k, nid in enumerate(shape.executors):
        wf.add_node(Node(nid, "executor", params={"retries": 0}, ui=NodeUi(x=k)))
    for k, nid in enumerate(shape.critics):
        wf.add_node(Node(nid, "critic", params={"retries": 0, "max_rounds": 3}, ui=NodeUi(x=k, y=1)))
    for k, (source, source_port, target, target_port) in enumerate(shape.wires):
        wf.add_edge(Edge(f"e{k}", source, source_port, target, target_port))
    return wf
