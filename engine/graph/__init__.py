"""The editable workflow model: nodes with roles, typed ports, parameters, edges, run settings.

`engine.graph.model` is the observable in-memory model, `engine.graph.roles` the role catalog
(ports and parameter specs per role), `engine.graph.format` the versioned `*.triadic.json` file
format and `engine.graph.validate` the validation that reports problems with their location.
"""

from __future__ import annotations

from engine.graph.model import Edge, Node, NodeUi, RunSettings, Workflow
from engine.graph.roles import ROLES, role_spec
from engine.graph.specs import ParamSpec, PortSpec, Role, RoleSpec, types_compatible

__all__ = [
    "ROLES",
    "Edge",
    "Node",
    "NodeUi",
    "ParamSpec",
    "PortSpec",
    "Role",
    "RoleSpec",
    "RunSettings",
    "Workflow",
    "role_spec",
    "types_compatible",
]
