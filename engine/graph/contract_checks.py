"""Validation of a workflow's trace contracts: do the names they use refer to something of the workflow.

A contract names nodes (``nodes``, ``gates``), roles (``roles``) and tools (``tools``). A node id the
workflow does not hold, or a role that does not exist, is an error (the contract could never hold
as meant); a ``gates`` entry that is not a human gate is an error too. A tool no node of the workflow
may call (not in an executor's allow-list, not a tool node's tool) is a warning: an MCP server may
offer it at run time under a pattern of an allow-list.

Invariants: read-only; problems in contract order, each on the field ``contracts[i].<field>``.
"""

from __future__ import annotations

import fnmatch

from engine.graph.model import Workflow
from engine.graph.problems import Problem, error, warning
from engine.graph.specs import Role

__all__ = ["callable_tools", "contract_problems"]

_ROLES = frozenset(r.value for r in Role)


def contract_problems(wf: Workflow) -> list[Problem]:
    """Every reference of `wf`'s contracts to a node, role or tool it does not have."""
    found: list[Problem] = []
    known_tools = callable_tools(wf)
    for index, contract in enumerate(wf.contracts):
        where = f"contracts[{index}]"
        label = f"Contract {index + 1} ({contract.title()})"
        for node_id in contract.nodes:
            if node_id not in wf.nodes:
                found.append(error("contract_unknown_node", f"{label} names a node {node_id!r} the workflow does "
                                   "not have.", field=f"{where}.nodes"))
        for role in contract.roles:
            if role not in _ROLES:
                found.append(error("contract_unknown_role", f"{label} names an unknown role {role!r} (roles: "
                                   f"{', '.join(sorted(_ROLES))}).", field=f"{where}.roles"))
        for gate in contract.gates:
            node = wf.nodes.get(gate)
            if node is None or node.role != Role.HUMAN_GATE:
                what = "a node the workflow does not have" if node is None else f"a {node.role} node"
                found.append(error("contract_bad_gate", f"{label} counts approvals of {gate!r}, which is {what}, "
                                   "not a Human gate.", field=f"{where}.gates"))
        for tool in contract.tools:
            if not any(fnmatch.fnmatchcase(tool, allowed) for allowed in known_tools):
                found.append(warning("contract_unknown_tool", f"{label} names a tool {tool!r} that no node of "
                                     "the workflow may call.", field=f"{where}.tools"))
    return found


def callable_tools(wf: Workflow) -> set[str]:
    """The tool names (or allow-list patterns) the workflow's nodes may call."""
    names: set[str] = set()
    for node in wf.nodes.values():
        if node.role == Role.TOOL:
            tool, allow = node.param("tool"), node.param("allow")
            names.update(t for t in [tool, *(allow if isinstance(allow, list) else [])] if isinstance(t, str) and t)
        elif node.role in (Role.EXECUTOR, Role.MAP):
            tools = node.param("tools")
            names.update(t for t in (tools if isinstance(tools, list) else []) if isinstance(t, str) and t)
    return names
