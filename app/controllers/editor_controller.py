"""Turns the canvas view's, inspector's, palette's and problems panel's intents into undo commands.

Invariants: this is the one place where edits are decided; every edit becomes exactly one command
pushed through `Document.push` (a refused edit pushes nothing and says why on the status bar);
the controller follows `Document.workflow_replaced`, so it always edits the current workflow.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QPointF, Signal

from app.commands import (
    AddEdgeCommand,
    AddNodeCommand,
    MoveNodesCommand,
    SetContractsCommand,
    SetParamCommand,
    SetRunSettingsCommand,
    SetTitleCommand,
    add_comment_command,
    align_positions,
    delete_comment_command,
    edit_comment_command,
    group_command,
    remove_command,
    ungroup_command,
)
from app.controllers.clipboard_actions import ClipboardActions
from app.document import Document
from engine.graph.contract_form import Contract
from engine.graph.layout import layered_layout
from engine.graph.model import Edge, Node, NodeUi, RunSettings, Workflow
from engine.graph.roles import role_spec
from engine.graph.specs import Role
from engine.graph.validate import can_connect


class EditorController(QObject):
    status_message = Signal(str)

    def __init__(self, document: Document, view: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.view = view
        self.clipboard = ClipboardActions(document, view, self.status_message.emit)
        self._connect_view(view)

    @property
    def workflow(self) -> Workflow:
        return self.document.workflow

    def _connect_view(self, view: Any) -> None:
        view.node_add_requested.connect(self.add_node)
        view.edge_connect_requested.connect(self.connect_ports)
        view.nodes_move_requested.connect(self.move_nodes)
        view.delete_requested.connect(self.delete)
        view.copy_requested.connect(self.clipboard.copy)
        view.cut_requested.connect(self.clipboard.cut)
        view.paste_requested.connect(self.clipboard.paste)
        view.duplicate_requested.connect(self.clipboard.duplicate)
        view.align_requested.connect(self.align)
        view.auto_layout_requested.connect(self.auto_layout)
        view.group_requested.connect(self.group)
        view.ungroup_requested.connect(self.ungroup)
        view.comment_add_requested.connect(self.add_comment)
        view.comment_edit_requested.connect(self.edit_comment)
        view.comment_delete_requested.connect(self.delete_comment)
        view.status_message.connect(self.status_message)

    # -- nodes and edges ----------------------------------------------------------------------
    def add_node(self, role: str, scene_pos: QPointF) -> str | None:
        spec = role_spec(role)
        if spec is None:
            self.status_message.emit(f"Unknown role {role!r}: nothing added")
            return None
        node = Node(self.workflow.new_node_id(role), role, spec.label, {}, NodeUi(scene_pos.x(), scene_pos.y()))
        self.document.push(AddNodeCommand(self.workflow, node))
        self.view.select_nodes([node.id])
        return node.id

    def add_node_at_centre(self, role: str) -> str | None:
        viewport = self.view.viewport().rect()
        return self.add_node(role, self.view.mapToScene(viewport.center()))

    def connect_ports(self, source: str, source_port: str, target: str, target_port: str) -> str | None:
        reason = can_connect(self.workflow, source, source_port, target, target_port)
        if reason is not None:
            self.status_message.emit(f"Cannot connect: {reason}")
            return None
        edge = Edge(self.workflow.new_edge_id(), source, source_port, target, target_port)
        self.document.push(AddEdgeCommand(self.workflow, edge))
        return edge.id

    def move_nodes(self, old: dict[str, tuple[float, float]], new: dict[str, tuple[float, float]]) -> None:
        if any(old.get(n) != p for n, p in new.items()):
            self.document.push(MoveNodesCommand(self.workflow, old, new))

    def delete(self, node_ids: list[str], edge_ids: list[str]) -> None:
        if node_ids or edge_ids:
            self.document.push(remove_command(self.workflow, list(node_ids), list(edge_ids)))

    def delete_selection(self) -> None:
        self.delete(self.view.selected_node_ids(), self.view.selected_edge_ids())

    # -- arrange --------------------------------------------------------------------------------
    def align(self, how: str) -> None:
        ids = self.view.selected_node_ids()
        if len(ids) < 2:
            self.status_message.emit("Select two or more nodes to align them")
            return
        self._move_to(align_positions(self.workflow, ids, how), f"Align {how}")

    def auto_layout(self, node_ids: list[str]) -> None:
        self._move_to(layered_layout(self.workflow, node_ids or None), "Auto-layout")

    def _move_to(self, positions: dict[str, tuple[float, float]], text: str) -> None:
        old = {n: (self.workflow.nodes[n].ui.x, self.workflow.nodes[n].ui.y) for n in positions}
        if old != positions:
            self.document.push(MoveNodesCommand(self.workflow, old, positions, text, mergeable=False))

    def group(self, node_ids: list[str]) -> None:
        if not node_ids:
            self.status_message.emit("Select the nodes to group into a sub-graph")
            return
        before = set(self.workflow.nodes)
        self.document.push(group_command(self.workflow, list(node_ids)))
        self.view.select_nodes([n for n in self.workflow.nodes if n not in before])

    def ungroup(self, node_id: str) -> None:
        node = self.workflow.node(node_id)
        if node is None or node.role != Role.SUBGRAPH.value or not node.params.get("graph"):
            self.status_message.emit("Select a sub-graph node with an embedded graph to ungroup it")
            return
        before = set(self.workflow.nodes)
        self.document.push(ungroup_command(self.workflow, node_id))
        self.view.select_nodes([n for n in self.workflow.nodes if n not in before])

    # -- comments -------------------------------------------------------------------------------
    def add_comment(self, scene_pos: QPointF) -> None:
        self.document.push(add_comment_command(self.workflow, scene_pos.x(), scene_pos.y()))

    def edit_comment(self, comment_id: str, fields: dict[str, Any]) -> None:
        self.document.push(edit_comment_command(self.workflow, comment_id, dict(fields)))

    def delete_comment(self, comment_id: str) -> None:
        self.document.push(delete_comment_command(self.workflow, comment_id))

    # -- inspector ------------------------------------------------------------------------------
    def set_param(self, node_id: str, name: str, value: Any) -> None:
        if node_id in self.workflow.nodes:
            self.document.push(SetParamCommand(self.workflow, node_id, name, value))

    def set_title(self, node_id: str, title: str) -> None:
        if node_id in self.workflow.nodes and self.workflow.nodes[node_id].title != title:
            self.document.push(SetTitleCommand(self.workflow, node_id, title))

    def set_settings(self, settings: RunSettings) -> None:
        if settings != self.workflow.settings:
            self.document.push(SetRunSettingsCommand(self.workflow, settings))

    def set_contracts(self, contracts: tuple[Contract, ...]) -> None:
        if tuple(contracts) != self.workflow.contracts:
            self.document.push(SetContractsCommand(self.workflow, tuple(contracts)))

    # -- problems -------------------------------------------------------------------------------
    def reveal(self, node_id: str | None, edge_id: str | None) -> None:
        """Select and centre the node (or the edge's source node) a problem points at."""
        if node_id and node_id in self.workflow.nodes:
            self.view.select_nodes([node_id])
            self.view.center_on_node(node_id)
        elif edge_id and edge_id in self.workflow.edges:
            self.view.select_edge(edge_id)
            self.view.center_on_node(self.workflow.edges[edge_id].source)
