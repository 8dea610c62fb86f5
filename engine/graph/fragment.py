"""Copy and paste of a selection of nodes: the clipboard fragment and fresh ids on paste.

A fragment is a file-format-shaped dict ``{"format": "triadic.fragment", "version": 2, "nodes": [...],
"edges": [...]}`` holding the selected nodes and only the edges between them; a whole workflow
document (``"format": "triadic.workflow"``) is accepted on paste too.

Invariants: `copy_fragment` never includes an edge to a node outside the selection; `paste_fragment`
never changes the workflow (the editor inserts the result through undo commands), returns new
objects whose ids clash neither with the workflow nor with each other, keeps the fragment's internal
wiring, and raises only `WorkflowFileError` for an invalid fragment.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable
from typing import Any

from engine.graph.convert import build_workflow, edge_to_dict, node_to_dict
from engine.graph.jsontext import check_limits
from engine.graph.migrate import FORMAT_VERSION
from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.graph.naming import secret_message
from engine.graph.problems import WorkflowFileError, error, file_error
from engine.graph.schema import FORMAT_NAME, FRAGMENT_FORMAT_NAME, structural_problems
from engine.graph.secret_scan import find_secrets

_SOURCE = "<clipboard>"

FRAGMENT_VERSION = 2  # the clipboard fragment keeps its own version
# the workflow format version whose nodes a fragment version holds: a version-1 fragment (copied by a
# Triadic before the version-3 renames) is migrated as a version-2 workflow would be
_WORKFLOW_VERSION = {1: 2, 2: FORMAT_VERSION}


def copy_fragment(wf: Workflow, node_ids: Iterable[str]) -> dict[str, Any]:
    """The selected nodes (ids not in `wf` are ignored) and the edges between them.

    Raises `WorkflowFileError` when a selected node holds a secret or a value JSON cannot hold.
    """
    chosen = {nid for nid in node_ids if nid in wf.nodes}
    try:
        nodes = [node_to_dict(n) for nid, n in wf.nodes.items() if nid in chosen]
    except WorkflowFileError as exc:
        raise WorkflowFileError(_SOURCE, exc.problems, action="copy") from exc
    edges = [edge_to_dict(e) for e in wf.edges.values() if e.source in chosen and e.target in chosen]
    return {"format": FRAGMENT_FORMAT_NAME, "version": FRAGMENT_VERSION, "nodes": nodes, "edges": edges}


def _fragment_workflow(fragment: Any) -> Workflow:
    if not isinstance(fragment, dict):
        raise file_error(_SOURCE, "not_object", "The clipboard does not hold a workflow fragment.", action="paste")
    check_limits(fragment, _SOURCE)
    if fragment.get("format") == FORMAT_NAME or "format" not in fragment:
        return build_workflow(copy.deepcopy(fragment), _SOURCE)
    problems = structural_problems(fragment, fragment=True)
    if problems:
        raise WorkflowFileError(_SOURCE, problems, action="paste")
    data = copy.deepcopy(fragment)
    wrapped = {"format": FORMAT_NAME, "version": _WORKFLOW_VERSION[data["version"]], "nodes": data["nodes"],
               "edges": data["edges"]}
    return build_workflow(wrapped, _SOURCE)


def paste_fragment(wf: Workflow, fragment: Any, *,
                   offset: tuple[float, float] = (40.0, 40.0)) -> tuple[list[Node], list[Edge]]:
    """New nodes and edges for `fragment`, with fresh ids and positions moved by `offset`."""
    try:
        source = _fragment_workflow(fragment)
    except WorkflowFileError as exc:
        raise WorkflowFileError(_SOURCE, exc.problems, action="paste") from exc
    problems = [error("dangling_edge", f"Edge {e.id} of the fragment connects to a node that is not in it.",
                      edge_id=e.id) for e in source.edges.values()
                if e.source not in source.nodes or e.target not in source.nodes]
    problems += [error("secret_param", secret_message(n, p), node_id=n.id)
                 for n in source.nodes.values() for p in find_secrets(n.params)]
    if problems:
        raise WorkflowFileError(_SOURCE, problems, action="paste")
    taken_nodes = set(wf.nodes)
    renamed: dict[str, str] = {}
    nodes: list[Node] = []
    dx, dy = offset
    for old in source.nodes.values():
        new_id = _fresh(old.role if old.role.isidentifier() else "node", taken_nodes)
        renamed[old.id] = new_id
        ui = NodeUi(old.ui.x + dx, old.ui.y + dy, old.ui.color, old.ui.collapsed)
        nodes.append(Node(new_id, old.role, old.title, old.params, ui))
    taken_edges = set(wf.edges)
    edges = [Edge(_fresh("e", taken_edges, sep=""), renamed[e.source], e.source_port, renamed[e.target],
                  e.target_port) for e in source.edges.values()]
    return nodes, edges


def _fresh(prefix: str, taken: set[str], *, sep: str = "_") -> str:
    """The first ``prefix{sep}N`` not in `taken` (which it joins)."""
    new_id = next(f"{prefix}{sep}{i}" for i in itertools.count(1) if f"{prefix}{sep}{i}" not in taken)
    taken.add(new_id)
    return new_id
