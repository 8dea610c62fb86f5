"""The editable workflow model: nodes with roles, typed ports, parameters, edges, run settings.

`engine.graph.model` is the observable in-memory model, `engine.graph.roles` the role catalog
(ports and parameter specs per role), `engine.graph.format` the versioned `*.triadic.json` file
format and `engine.graph.validate` the validation that reports problems with their location.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine.graph.model import Edge, Node, NodeUi, RunSettings, Workflow
from engine.graph.problems import Problem, WorkflowFileError
from engine.graph.roles import ROLES, role_spec
from engine.graph.specs import ParamSpec, PortSpec, Role, RoleSpec, types_compatible

if TYPE_CHECKING:
    from engine.graph.format import FORMAT_VERSION, load_workflow, save_workflow
    from engine.graph.validate import can_connect, validate

# Imported on first use, so that `import engine.graph` stays cheap and `python -m engine.graph.schema`
# runs without the package having imported the schema module first.
_LAZY = {"FORMAT_VERSION": "engine.graph.format", "load_workflow": "engine.graph.format",
         "save_workflow": "engine.graph.format", "can_connect": "engine.graph.validate",
         "validate": "engine.graph.validate"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'engine.graph' has no attribute {name!r}")


__all__ = [
    "FORMAT_VERSION",
    "ROLES",
    "Edge",
    "Node",
    "NodeUi",
    "ParamSpec",
    "PortSpec",
    "Problem",
    "Role",
    "RoleSpec",
    "RunSettings",
    "Workflow",
    "WorkflowFileError",
    "can_connect",
    "load_workflow",
    "role_spec",
    "save_workflow",
    "types_compatible",
    "validate",
]
