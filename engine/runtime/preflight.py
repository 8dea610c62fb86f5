"""Before a run starts: the models its nodes will call, and whether the gateway can reach each of them.

A run whose model needs an API key that is not there fails before its first node runs — not after a
planner has already been paid for — with a reason naming the provider, the nodes and what to set.

Invariants: only nodes that call a model count (a condition router, a concat reduce do not); a role's
model override applies as it does to the run's calls; sub-graphs count with their nodes' labels
prefixed by the sub-graph node's; a gateway without `missing_key` (the in-process simulator) is never
asked; what cannot be told before the call (most models without a provider prefix) is left to the call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.graph.roles import role_spec
from engine.runtime.plan import PlanNode, RunPlan


@dataclass(frozen=True, slots=True)
class ModelUse:
    model: str
    api_base: str | None
    node: str  # the node's label, e.g. "Execute (executor)"


def models_in_use(plan: RunPlan, overrides: Mapping[str, str], prefix: str = "") -> list[ModelUse]:
    """Every (model, server) a node of `plan` calls, with the node's label, in plan order."""
    uses: list[ModelUse] = []
    for nid in plan.order:
        node = plan.nodes[nid]
        if _calls_a_model(node):
            model = overrides.get(node.role) or node.setup.model
            api_base = node.setup.call.api_base if node.setup.call else None
            uses.append(ModelUse(model, api_base, prefix + node.label))
        if nid in plan.subplans:
            uses += models_in_use(plan.subplans[nid], overrides, f"{prefix}{node.label} › ")
    return uses


def models_called(plan: RunPlan, overrides: Mapping[str, str]) -> set[tuple[str, str | None]]:
    """The (model, server) pairs `models_in_use` names, without the labels: what a run's start needs,
    per run, in a lean walk (0.1 ms instead of ~5 ms for 1,000 nodes)."""
    calls: dict[tuple[str, Any], bool] = {}  # (role, mode) -> whether such a node calls a model
    models: set[tuple[str, str | None]] = set()
    for node in plan.nodes.values():
        key = (node.role, node.param("mode") if node.role in ("router", "reduce") else None)
        found = calls.get(key)
        if found is None:
            found = calls[key] = _calls_a_model(node)
        if found:
            models.add((overrides.get(node.role) or node.setup.model, node.setup.call.api_base if node.setup.call else None))
    for subplan in plan.subplans.values():
        models |= models_called(subplan, overrides)
    return models


def missing_keys(plan: RunPlan, overrides: Mapping[str, str], gateway: Any) -> list[str]:
    """What keeps the run's models from being called, one line per provider (empty: nothing known)."""
    check = getattr(gateway, "missing_key", None)
    if check is None:
        return []
    found = {(model, api_base): check(model, api_base) for model, api_base in models_called(plan, overrides)}
    if not any(found.values()):
        return []  # the common case, told without a label per node
    problems: dict[str, list[ModelUse]] = {}
    for use in models_in_use(plan, overrides):
        problem = found[(use.model, use.api_base)]  # the gateway is asked once per (model, server)
        if problem:
            problems.setdefault(problem, []).append(use)
    lines = []
    for problem, uses in problems.items():
        models = ", ".join(dict.fromkeys(use.model for use in uses))
        nodes = ", ".join(dict.fromkeys(use.node for use in uses))
        lines.append(f"{models} (used by {nodes}): {problem}")
    return lines


def _calls_a_model(node: PlanNode) -> bool:
    spec = role_spec(node.role)
    if spec is None or not spec.uses_llm:
        return False
    if node.role == "router":
        return str(node.param("mode") or "condition") == "classifier"
    if node.role == "reduce":
        return str(node.param("mode")) != "concat"
    return True
