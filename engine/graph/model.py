"""The observable, editable workflow model.

A `Workflow` holds nodes (each with a role from the catalog, parameters and a `ui` part),
edges between named ports, run settings (the run's `Budget`, concurrency, seed), trace contracts (assertions
checked over each run's events, `engine.graph.contract_form`) and a free-form `ui` dict
(comments, groups, viewport) that the engine ignores.

Invariants:
- every change goes through a mutating method, and every mutating method announces exactly one
  `WorkflowChange` to the subscribers after the change is made (the model announces, views listen);
- the model accepts anything structurally sound (unknown roles, dangling edges) so that a file with
  problems can still be opened and shown; `engine.graph.validate` reports what is wrong;
- a run never uses this object directly: `engine.runtime` compiles a frozen plan from it.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.budget import Budget
from engine.graph.contract_form import Contract
from engine.graph.roles import role_spec
from engine.graph.specs import PortSpec

__all__ = ["Budget", "ChangeKind", "Edge", "Node", "NodeUi", "RunSettings", "Workflow", "WorkflowChange"]

ChangeKind = Literal[
    "node_added", "node_removed", "node_changed", "node_moved",
    "edge_added", "edge_removed", "settings_changed", "meta_changed", "ui_changed", "contracts_changed",
]


@dataclass(slots=True)
class NodeUi:
    x: float = 0.0
    y: float = 0.0
    color: str | None = None
    collapsed: bool = False


@dataclass(slots=True)
class Node:
    id: str
    role: str
    title: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    ui: NodeUi = field(default_factory=NodeUi)

    def param(self, name: str) -> Any:
        """The parameter's value, or the role's default when unset."""
        if name in self.params:
            return self.params[name]
        spec = role_spec(self.role)
        p = spec.param(name) if spec else None
        return copy.deepcopy(p.default) if p else None

    def input_ports(self) -> tuple[PortSpec, ...]:
        spec = role_spec(self.role)
        return spec.inputs if spec else ()

    def output_ports(self) -> tuple[PortSpec, ...]:
        spec = role_spec(self.role)
        if spec is None:
            return ()
        if spec.dynamic_outputs:
            names = self.param(spec.dynamic_outputs)
            extra = tuple(PortSpec(str(n), "any") for n in names) if isinstance(names, list) else ()
            return spec.outputs + extra
        return spec.outputs

    def port(self, name: str, *, output: bool) -> PortSpec | None:
        ports = self.output_ports() if output else self.input_ports()
        return next((p for p in ports if p.name == name), None)


@dataclass(frozen=True, slots=True)
class Edge:
    id: str
    source: str
    source_port: str
    target: str
    target_port: str


@dataclass(slots=True)
class RunSettings:
    budget: Budget = field(default_factory=Budget)
    concurrency: int = 8
    seed: int = 0


@dataclass(frozen=True, slots=True)
class WorkflowChange:
    kind: ChangeKind
    node_id: str | None = None
    edge_id: str | None = None
    field: str | None = None


Listener = Callable[[WorkflowChange], None]


class Workflow:
    """An editable workflow graph that announces its changes to subscribers."""

    def __init__(self, name: str = "Untitled", *, id: str = "", description: str = "") -> None:
        self.id = id
        self.name = name
        self.description = description
        self.settings = RunSettings()
        self.nodes: dict[str, Node] = {}
        self.edges: dict[str, Edge] = {}
        self.ui: dict[str, Any] = {}
        self.contracts: tuple[Contract, ...] = ()
        self._listeners: list[Listener] = []

    # -- observation -------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(change)` after each change; returns the function that stops it. That function
        holds the listener and this workflow: a holder that keeps it after calling it (its own bound
        method inside) is a cycle only the cycle collector frees — drop it once called."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _announce(self, change: WorkflowChange) -> None:
        for listener in list(self._listeners):
            listener(change)

    # -- queries -----------------------------------------------------------------------------
    def node(self, node_id: str) -> Node | None:
        return self.nodes.get(node_id)

    def edges_of(self, node_id: str) -> list[Edge]:
        return [e for e in self.edges.values() if node_id in (e.source, e.target)]

    def incoming(self, node_id: str) -> Iterator[Edge]:
        return (e for e in self.edges.values() if e.target == node_id)

    def outgoing(self, node_id: str) -> Iterator[Edge]:
        return (e for e in self.edges.values() if e.source == node_id)

    def new_node_id(self, role: str) -> str:
        return next(f"{role}_{i}" for i in itertools.count(1) if f"{role}_{i}" not in self.nodes)

    def new_edge_id(self) -> str:
        return next(f"e{i}" for i in itertools.count(len(self.edges) + 1) if f"e{i}" not in self.edges)

    # -- mutations (each announces one change) -----------------------------------------------
    def add_node(self, node: Node) -> None:
        if node.id in self.nodes:
            raise ValueError(f"node id {node.id!r} already exists")
        self.nodes[node.id] = node
        if self._listeners:  # a file being loaded has none: 5,000 announcements to nobody cost ~15 ms
            self._announce(WorkflowChange("node_added", node_id=node.id))

    def remove_node(self, node_id: str) -> Node:
        """Remove a node; its edges must be removed first (the document does it in one macro)."""
        attached = self.edges_of(node_id)
        if attached:
            raise ValueError(f"node {node_id!r} still has {len(attached)} edge(s)")
        node = self.nodes.pop(node_id)
        self._announce(WorkflowChange("node_removed", node_id=node_id))
        return node

    def set_param(self, node_id: str, name: str, value: Any) -> None:
        self.nodes[node_id].params[name] = value
        self._announce(WorkflowChange("node_changed", node_id=node_id, field=f"params.{name}"))

    def unset_param(self, node_id: str, name: str) -> None:
        self.nodes[node_id].params.pop(name, None)
        self._announce(WorkflowChange("node_changed", node_id=node_id, field=f"params.{name}"))

    def set_title(self, node_id: str, title: str) -> None:
        self.nodes[node_id].title = title
        self._announce(WorkflowChange("node_changed", node_id=node_id, field="title"))

    def set_node_ui(self, node_id: str, **values: Any) -> None:
        ui = self.nodes[node_id].ui
        for key, value in values.items():
            setattr(ui, key, value)
        moved = set(values) <= {"x", "y"}
        kind: ChangeKind = "node_moved" if moved else "node_changed"
        self._announce(WorkflowChange(kind, node_id=node_id, field="ui"))

    def move_node(self, node_id: str, x: float, y: float) -> None:
        self.set_node_ui(node_id, x=x, y=y)

    def add_edge(self, edge: Edge) -> None:
        if edge.id in self.edges:
            raise ValueError(f"edge id {edge.id!r} already exists")
        self.edges[edge.id] = edge
        if self._listeners:  # as in add_node
            self._announce(WorkflowChange("edge_added", edge_id=edge.id))

    def remove_edge(self, edge_id: str) -> Edge:
        edge = self.edges.pop(edge_id)
        self._announce(WorkflowChange("edge_removed", edge_id=edge_id))
        return edge

    def set_settings(self, settings: RunSettings) -> None:
        self.settings = settings
        self._announce(WorkflowChange("settings_changed"))

    def set_contracts(self, contracts: tuple[Contract, ...]) -> None:
        self.contracts = tuple(contracts)
        self._announce(WorkflowChange("contracts_changed"))

    def set_meta(self, *, name: str | None = None, description: str | None = None) -> None:
        if name is not None:
            self.name = name
        if description is not None:
            self.description = description
        self._announce(WorkflowChange("meta_changed"))

    def set_ui(self, key: str, value: Any) -> None:
        if value is None:
            self.ui.pop(key, None)
        else:
            self.ui[key] = value
        self._announce(WorkflowChange("ui_changed", field=key))
