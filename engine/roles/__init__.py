"""The role implementations the runtime executes, and the registry that maps a role to one.

Each handler is `async (NodeContext) -> dict[port, value]`: the values it emits on its output
ports (a port left out is not emitted, so what hangs off it is skipped). Handlers fail by raising
`NodeFailed` with a reason for the user. Behaviour per role: see each module's docstring.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from engine.roles.critic import run_critic
from engine.roles.executor import run_executor
from engine.roles.human_gate import run_human_gate
from engine.roles.io import run_input, run_output
from engine.roles.mapreduce import run_map, run_reduce
from engine.roles.memory_node import run_memory
from engine.roles.planner import run_planner
from engine.roles.router import run_router
from engine.roles.subgraph import run_subgraph
from engine.roles.tool_node import run_tool
from engine.roles.verifier import run_verifier
from engine.roles.vote import run_vote
from engine.runtime.context import NodeContext

RoleHandler = Callable[[NodeContext], Awaitable[dict[str, Any]]]

ROLE_HANDLERS: dict[str, RoleHandler] = {
    "input": run_input, "output": run_output, "planner": run_planner, "executor": run_executor,
    "critic": run_critic, "verifier": run_verifier, "router": run_router, "map": run_map,
    "reduce": run_reduce, "vote": run_vote, "memory": run_memory, "tool": run_tool,
    "human_gate": run_human_gate, "subgraph": run_subgraph,
}


def handler_for(role: str) -> RoleHandler:
    try:
        return ROLE_HANDLERS[role]
    except KeyError:
        raise KeyError(f"no implementation for role {role!r}") from None


__all__ = ["ROLE_HANDLERS", "RoleHandler", "handler_for"]
