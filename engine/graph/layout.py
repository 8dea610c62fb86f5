"""Automatic layered (Sugiyama) layout of a workflow, left to right, using grandalf.

`layered_layout(wf, node_ids=None)` returns a new top-left position for every laid-out node; it
never changes the workflow (the editor applies the result as one undoable move).

Invariants:
- every requested node gets a position, connected or not; unknown ids are ignored;
- cycles (revise loops) are broken by grandalf's feedback-edge detection, never by dropping nodes;
- each weakly connected component is laid out on its own (grandalf works per component and this
  keeps large graphs fast); components are stacked top to bottom, isolated nodes go in a grid
  below them;
- nodes of one layer never overlap: each layer is swept and pushed apart if needed;
- the result is anchored at the top-left corner of the nodes' current bounding box, so an
  auto-layout does not throw the graph somewhere else on the canvas.

`node_box(node)` is the nominal size of a node's box; the canvas draws nodes at that size.

grandalf (and numpy behind it, ~0.3–0.5 s) is imported on the first layout, not when this module
is imported: the canvas imports `node_box` at start-up.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from engine.graph.model import Node, Workflow

NODE_WIDTH = 184.0
HEADER_HEIGHT = 30.0
PORT_ROW = 20.0
FOOTER_HEIGHT = 22.0
LAYER_GAP = 90.0  # horizontal space between layers
NODE_GAP = 36.0  # vertical space between nodes of one layer
COMPONENT_GAP = 80.0

Position = tuple[float, float]


def node_box(node: Node) -> tuple[float, float]:
    """Width and height of a node's box on the canvas (depends on its port count)."""
    rows = max(len(node.input_ports()), len(node.output_ports()), 1)
    return NODE_WIDTH, HEADER_HEIGHT + rows * PORT_ROW + FOOTER_HEIGHT


def layered_layout(wf: Workflow, node_ids: Iterable[str] | None = None) -> dict[str, Position]:
    """New top-left positions {node_id: (x, y)} for `node_ids` (default: every node)."""
    ids = list(wf.nodes) if node_ids is None else list(dict.fromkeys(i for i in node_ids if i in wf.nodes))
    if not ids:
        return {}
    chosen = set(ids)
    pairs = sorted({(e.source, e.target) for e in wf.edges.values()
                    if e.source in chosen and e.target in chosen and e.source != e.target})
    components = _components(ids, pairs)
    result: dict[str, Position] = {}
    top = 0.0
    singles = [c[0] for c in components if len(c) == 1]
    for component in (c for c in components if len(c) > 1):
        members = set(component)
        placed = _layout_component(wf, component, [p for p in pairs if p[0] in members])
        height = _place(wf, result, placed, top)
        top += height + COMPONENT_GAP
    _grid(wf, singles, top, result)
    return _anchor(wf, ids, result)


def _components(ids: list[str], pairs: list[tuple[str, str]]) -> list[list[str]]:
    parent = {i: i for i in ids}

    def find(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[str, list[str]] = {}
    for i in ids:
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


@functools.cache
def _grandalf() -> tuple[Any, Any, Any, Any]:
    """(Vertex, Edge, VertexViewer, (component graph class, layout class)), imported on first use."""
    from grandalf.graphs import Edge as GEdge
    from grandalf.graphs import Vertex, graph_core
    from grandalf.layouts import SugiyamaLayout, VertexViewer
    from grandalf.utils import Poset

    class Component(graph_core):  # type: ignore[misc]
        """A grandalf graph of one component known to be connected.

        grandalf's own constructor re-checks connectivity with a set comparison per vertex (O(n²),
        10 s at 5,000 nodes); the caller already computed the components, so this skips that check.
        """

        def __init__(self, vertices: list[Any], edges: list[Any]) -> None:
            self.directed = True
            self.sV = Poset(vertices)
            self.sE = Poset([])
            self.degenerated_edges: set[Any] = set()
            for edge in edges:
                self.sE.add(edge).attach()
            for vertex in vertices:
                vertex.c = self

    class Sugiyama(SugiyamaLayout):  # type: ignore[misc]
        """grandalf's layout with its alignment-conflict list made a set (membership was O(n) per test)."""

        def _detect_alignment_conflicts(self) -> None:
            super()._detect_alignment_conflicts()
            self.conflicts: set[tuple[object, object]] = set(self.conflicts)

    return Vertex, GEdge, VertexViewer, (Component, Sugiyama)


def _layout_component(wf: Workflow, ids: list[str], pairs: list[tuple[str, str]]) -> dict[str, Position]:
    """Left-to-right positions (box centres) of one connected component."""
    vertex_type, edge_type, viewer_type, (component_type, sugiyama_type) = _grandalf()
    vertices: dict[str, Any] = {}
    for node_id in ids:
        vertex = vertex_type(node_id)
        width, height = node_box(wf.nodes[node_id])
        # grandalf lays out top to bottom: its w runs across the flow (our height), its h along it
        vertex.view = viewer_type(w=height, h=width)
        vertices[node_id] = vertex
    graph = component_type(list(vertices.values()), [edge_type(vertices[a], vertices[b]) for a, b in pairs])
    sugiyama = sugiyama_type(graph)
    sugiyama.xspace = NODE_GAP
    sugiyama.yspace = LAYER_GAP
    targets = {b for _, b in pairs}
    roots = [v for i, v in vertices.items() if i not in targets]
    if not roots:  # the whole component is one cycle: start at an input node or the first one
        first = next((i for i in ids if wf.nodes[i].role == "input"), ids[0])
        roots = [vertices[first]]
    sugiyama.init_all(roots=roots)
    sugiyama.draw(N=2.5 if len(ids) <= 300 else 1.5)
    centres = {i: (float(v.view.xy[1]), float(v.view.xy[0])) for i, v in vertices.items()}
    _separate_layers(wf, centres)
    return centres


def _separate_layers(wf: Workflow, centres: dict[str, Position]) -> None:
    """Push apart any nodes of one layer (same x) whose boxes would overlap vertically."""
    layers: dict[float, list[str]] = {}
    for node_id, (x, _) in centres.items():
        layers.setdefault(round(x, 3), []).append(node_id)
    for members in layers.values():
        members.sort(key=lambda i: centres[i][1])
        bottom = float("-inf")
        for node_id in members:
            x, y = centres[node_id]
            half = node_box(wf.nodes[node_id])[1] / 2
            if y - half < bottom + NODE_GAP:
                y = bottom + NODE_GAP + half
                centres[node_id] = (x, y)
            bottom = y + half


def _place(wf: Workflow, result: dict[str, Position], centres: dict[str, Position], top: float) -> float:
    """Store top-left corners of a laid-out component with its top edge at `top`; return its height."""
    boxes = {i: (x - NODE_WIDTH / 2, y - node_box(wf.nodes[i])[1] / 2) for i, (x, y) in centres.items()}
    min_x = min(x for x, _ in boxes.values())
    min_y = min(y for _, y in boxes.values())
    bottom = 0.0
    for node_id, (x, y) in boxes.items():
        result[node_id] = (x - min_x, top + y - min_y)
        bottom = max(bottom, y - min_y + node_box(wf.nodes[node_id])[1])
    return bottom


def _grid(wf: Workflow, ids: list[str], top: float, result: dict[str, Position]) -> None:
    columns = max(1, int(len(ids) ** 0.5))
    row_height = max((node_box(wf.nodes[i])[1] for i in ids), default=0.0) + NODE_GAP
    for index, node_id in enumerate(ids):
        row, column = divmod(index, columns)
        result[node_id] = (column * (NODE_WIDTH + LAYER_GAP), top + row * row_height)


def _anchor(wf: Workflow, ids: list[str], result: dict[str, Position]) -> dict[str, Position]:
    left = min(wf.nodes[i].ui.x for i in ids)
    top = min(wf.nodes[i].ui.y for i in ids)
    shift_x = left - min(x for x, _ in result.values())
    shift_y = top - min(y for _, y in result.values())
    return {i: (round(x + shift_x, 1), round(y + shift_y, 1)) for i, (x, y) in result.items()}
