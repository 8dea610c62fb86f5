"""How problems and refusals name things: "Critic 'Review' (critic_1)", "input 'task' (task)".

Invariant: every sentence shown to a person names a node by role label, title and id, so that it
can be found on the canvas and in the file.
"""

from __future__ import annotations

from functools import lru_cache

from engine.graph.model import Node
from engine.graph.roles import role_spec
from engine.graph.specs import PortSpec, RoleSpec


@lru_cache(maxsize=256)
def spec_for(role: str) -> RoleSpec | None:
    """`role_spec`, memoized: validation asks once per node and per edge end."""
    return role_spec(role)


def node_ports(node: Node, spec: RoleSpec) -> tuple[tuple[PortSpec, ...], tuple[PortSpec, ...]]:
    """(inputs, outputs) of a node whose role is `spec`, including dynamic outputs."""
    return spec.inputs, node.output_ports() if spec.dynamic_outputs else spec.outputs


def role_label(role: str) -> str:
    spec = spec_for(role)
    return spec.label if spec else "Node"


def describe_node(node: Node) -> str:
    """``Critic 'Review' (critic_1)``, or ``Critic (critic_1)`` when the node has no title."""
    label = role_label(node.role)
    return f"{label} {node.title!r} ({node.id})" if node.title else f"{label} ({node.id})"


def describe_port(port: PortSpec, *, output: bool) -> str:
    return f"{'Output' if output else 'input'} {port.name!r} ({port.type})"


def secret_message(node: Node, path: str) -> str:
    return (f"Parameter {path!r} of {describe_node(node)} holds a secret: keys never go in workflow "
            "files. Remove it and store the key in the key store (Settings → Providers).")
