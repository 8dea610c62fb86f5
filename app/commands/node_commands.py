"""Undo commands for nodes: add, remove (with their edges), paste, set a parameter, set the title."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from app.commands.edge_commands import AddEdgeCommand, RemoveEdgeCommand
from app.commands.macro import MacroCommand
from engine.graph.model import Edge, Node, Workflow

_UNSET = object()


class AddNodeCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, node: Node) -> None:
        super().__init__(f"Add {node.title or node.id}")
        self._workflow = workflow
        self._node = node

    def redo(self) -> None:
        self._workflow.add_node(self._node)

    def undo(self) -> None:
        self._workflow.remove_node(self._node.id)


class RemoveNodeCommand(QUndoCommand):
    """Remove one node that has no edges left (see `remove_command` for the full removal)."""

    def __init__(self, workflow: Workflow, node_id: str) -> None:
        super().__init__(f"Remove {node_id}")
        self._workflow = workflow
        self._node = workflow.nodes[node_id]

    def redo(self) -> None:
        self._workflow.remove_node(self._node.id)

    def undo(self) -> None:
        self._workflow.add_node(self._node)


def remove_command(workflow: Workflow, node_ids: list[str], edge_ids: list[str]) -> MacroCommand:
    """One macro removing the given edges, every edge attached to the given nodes, then the nodes."""
    nodes = [n for n in dict.fromkeys(node_ids) if n in workflow.nodes]
    edges = [e for e in dict.fromkeys(edge_ids) if e in workflow.edges]
    for node_id in nodes:
        edges.extend(e.id for e in workflow.edges_of(node_id) if e.id not in edges)
    what = f"{len(nodes)} node(s)" if nodes else f"{len(edges)} edge(s)"
    macro = MacroCommand(f"Delete {what}")
    for edge_id in edges:
        macro.add(RemoveEdgeCommand(workflow, edge_id))
    for node_id in nodes:
        macro.add(RemoveNodeCommand(workflow, node_id))
    return macro


def paste_command(workflow: Workflow, nodes: list[Node], edges: list[Edge], text: str = "Paste") -> MacroCommand:
    """One macro adding the given (already re-identified) nodes, then their edges."""
    macro = MacroCommand(f"{text} {len(nodes)} node(s)")
    for node in nodes:
        macro.add(AddNodeCommand(workflow, node))
    for edge in edges:
        macro.add(AddEdgeCommand(workflow, edge))
    return macro


_SET_PARAM_ID = 0x7A1E


class SetParamCommand(QUndoCommand):
    """Set one parameter; undo restores the previous value or unsets it if it was unset.

    Consecutive changes of the same parameter of the same node merge into one undo step (holding a
    spin box arrow or typing in a field does not flood the history).
    """

    def __init__(self, workflow: Workflow, node_id: str, name: str, value: Any) -> None:
        super().__init__(f"Set {node_id}.{name}")
        self._workflow = workflow
        self._node_id = node_id
        self._name = name
        self._value = copy.deepcopy(value)
        params = workflow.nodes[node_id].params
        self._old = copy.deepcopy(params[name]) if name in params else _UNSET

    def id(self) -> int:
        return _SET_PARAM_ID

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SetParamCommand) or (other._node_id, other._name) != (self._node_id, self._name):
            return False
        self._value = copy.deepcopy(other._value)
        return True

    def redo(self) -> None:
        self._workflow.set_param(self._node_id, self._name, copy.deepcopy(self._value))

    def undo(self) -> None:
        if self._old is _UNSET:
            self._workflow.unset_param(self._node_id, self._name)
        else:
            self._workflow.set_param(self._node_id, self._name, copy.deepcopy(self._old))


class SetTitleCommand(QUndoCommand):
    def __init__(self, workflow: Workflow, node_id: str, title: str) -> None:
        super().__init__(f"Rename {node_id} to {title!r}")
        self._workflow = workflow
        self._node_id = node_id
        self._title = title
        self._old = workflow.nodes[node_id].title

    def redo(self) -> None:
        self._workflow.set_title(self._node_id, self._title)

    def undo(self) -> None:
        self._workflow.set_title(self._node_id, self._old)
