"""Checking one node's parameters against its role's `ParamSpec`s and role-specific rules.

Reports: a value of the wrong type, out of range or not among the choices (error); a parameter the
role does not know (warning); an LLM role with an empty model; a server address (`api_base`) that is not
http(s); a router without routes; a sub-graph with neither a path nor an embedded graph; a parameter
holding a secret.

Invariant: reads `node.params` and the spec defaults directly (no copies), so checking thousands of
nodes stays cheap.
"""

from __future__ import annotations

import math
from typing import Any

from engine.graph.model import Node
from engine.graph.naming import describe_node, secret_message
from engine.graph.problems import Problem, error, warning
from engine.graph.secret_scan import find_secrets
from engine.graph.specs import ParamSpec, RoleSpec

_JSON_SCALARS = (str, int, float, bool, type(None))


def _num(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def _range_message(p: ParamSpec, value: float) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    low, high = p.minimum, p.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            return f"must be between {_num(low)} and {_num(high)}, not {_num(value)}"
        return f"must be at least {_num(low)}" if low is not None else f"must be at most {_num(high or 0)}"
    return None


def _is_json(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                return False
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif not isinstance(item, _JSON_SCALARS) or (isinstance(item, float) and not math.isfinite(item)):
            return False
    return True


def value_message(p: ParamSpec, value: Any) -> str | None:
    """Why `value` is not acceptable for `p`, or None."""
    kind = p.kind
    if kind in ("str", "text", "model", "choice"):
        if not isinstance(value, str):
            return "must be text"
        if len(value) > p.max_length:
            return f"is longer than {p.max_length:,} characters"
        if kind == "choice" and value not in p.choices:
            return "must be one of " + ", ".join(repr(c) for c in p.choices) + f", not {value[:40]!r}"
        return None
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a whole number"
        return _range_message(p, value)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "must be a number"
        return _range_message(p, value)
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind == "list" and not isinstance(value, list):
        return "must be a list"
    return None if _is_json(value) else "must hold only JSON values (text, numbers, true/false, lists, objects)"


def param_problems(node: Node, spec: RoleSpec) -> list[Problem]:
    """Every problem of `node`'s parameters (its role is known: `spec`)."""
    problems: list[Problem] = []
    for name, value in node.params.items():
        p = spec.param(name)
        field = f"params.{name}"
        if p is None:
            problems.append(warning("unknown_param", f"{describe_node(node)} has a parameter {name!r} that its "
                                    "role does not use; it is ignored.", node_id=node.id, field=field))
            continue
        message = value_message(p, value)
        if message:
            problems.append(error("bad_param", f"Parameter {name!r} of {describe_node(node)} {message}.",
                                  node_id=node.id, field=field))
    problems.extend(error("secret_param", secret_message(node, path), node_id=node.id, field=f"params.{path}")
                    for path in find_secrets(node.params))
    problems.extend(_role_rules(node, spec))
    return problems


def _value(node: Node, spec: RoleSpec, name: str) -> Any:
    if name in node.params:
        return node.params[name]
    p = spec.param(name)
    return p.default if p else None


def _role_rules(node: Node, spec: RoleSpec) -> list[Problem]:
    out: list[Problem] = []
    role = spec.role.value
    model = _value(node, spec, "model")
    needs_model = spec.uses_llm and (role != "router" or _value(node, spec, "mode") != "condition")
    if needs_model and spec.param("model") and isinstance(model, str) and not model.strip():
        out.append(error("empty_model", f"{describe_node(node)} has no model: pick one (for example "
                         "sim/default).", node_id=node.id, field="params.model"))
    api_base = node.params.get("api_base")
    if isinstance(api_base, str) and api_base.strip() and not api_base.strip().lower().startswith(("http://", "https://")):
        out.append(error("bad_api_base", f"The server address of {describe_node(node)} must start with http:// or "
                         "https:// (for example http://localhost:8000/v1).", node_id=node.id, field="params.api_base"))
    if role == "router":
        routes = _value(node, spec, "routes")
        if isinstance(routes, list) and not routes:
            out.append(error("no_routes", f"{describe_node(node)} has no routes: add at least one branch name.",
                             node_id=node.id, field="params.routes"))
        elif isinstance(routes, list) and (len(set(map(str, routes))) != len(routes)
                                           or not all(isinstance(r, str) and r for r in routes)):
            out.append(error("bad_routes", f"The routes of {describe_node(node)} must be distinct, non-empty "
                             "names.", node_id=node.id, field="params.routes"))
    if role == "subgraph":
        path, graph = _value(node, spec, "path"), _value(node, spec, "graph")
        if not (isinstance(path, str) and path.strip()) and not graph:
            out.append(error("empty_subgraph", f"{describe_node(node)} has neither a workflow file (path) nor "
                             "an embedded graph.", node_id=node.id, field="params.path"))
    return out
