"""Converting between the `Workflow` model and the file-format dict (see `engine.graph.schema`).

Invariants: `workflow_to_dict` writes exactly what the model holds (no defaults added or dropped),
with free-form parts (params, ui) copied with sorted keys, so the output is deterministic and
save → load → save is byte-identical; it refuses secrets and values JSON cannot hold.
`workflow_from_dict` never keeps references to the caller's objects and raises only
`WorkflowFileError`.
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Callable
from typing import Any

from engine.budget import LIMITS
from engine.graph.contract_form import contracts_to_data, read_contracts
from engine.graph.fast_schema_check import compile_schema
from engine.graph.jsontext import MAX_DEPTH, MAX_STRING_CHARS, check_limits
from engine.graph.migrate import FORMAT_VERSION, migrate
from engine.graph.model import Budget, Edge, Node, NodeUi, RunSettings, Workflow
from engine.graph.naming import describe_node, secret_message
from engine.graph.problems import Problem, WorkflowFileError, error, file_error
from engine.graph.schema import FORMAT_NAME, WORKFLOW_SCHEMA, structural_problems
from engine.graph.secret_scan import find_secrets

is_workflow_shaped: Callable[[Any], bool] = compile_schema(WORKFLOW_SCHEMA)


class _UnsaveableError(Exception):
    pass


def plain(value: Any, levels: int = MAX_DEPTH) -> Any:
    """A copy of a JSON value with dict keys sorted; `_UnsaveableError` for anything a load would refuse.

    `levels` is how many nested containers the value may still open (the file's depth limit).
    """
    if isinstance(value, str):
        if len(value) > MAX_STRING_CHARS:
            raise _UnsaveableError(f"a text of {len(value):,} characters (at most {MAX_STRING_CHARS:,})")
        return value
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _UnsaveableError(f"the number {value} (JSON holds finite numbers only)")
        return value
    if isinstance(value, dict | list | tuple) and levels < 1:
        raise _UnsaveableError(f"values nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise _UnsaveableError("a dict whose keys are not all text")
        return {k: plain(value[k], levels - 1) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [plain(v, levels - 1) for v in value]
    raise _UnsaveableError(f"a value of type {type(value).__name__}")


def _number(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # an int too big for a float: the schema check reports it
            return value
    return value


def node_to_dict(node: Node) -> dict[str, Any]:
    secrets = list(find_secrets(node.params))
    if secrets:
        raise WorkflowFileError("", [error("secret_param", secret_message(node, p), node_id=node.id,
                                           field=f"params.{p}") for p in secrets], action="save")
    try:
        params = plain(node.params, MAX_DEPTH - 3)
        color = plain(node.ui.color)
    except (_UnsaveableError, RecursionError) as exc:
        what = exc if isinstance(exc, _UnsaveableError) else "values nested too deeply"
        raise WorkflowFileError("", [error("unsaveable", f"A parameter of {describe_node(node)} holds {what}, "
                                           "which cannot be saved.", node_id=node.id, field="params")],
                                action="save") from exc
    ui = {"x": _number(node.ui.x), "y": _number(node.ui.y), "color": color, "collapsed": node.ui.collapsed}
    return {"id": node.id, "role": node.role, "title": node.title, "params": params, "ui": ui}


def edge_to_dict(edge: Edge) -> dict[str, Any]:
    return {"id": edge.id, "source": edge.source, "source_port": edge.source_port,
            "target": edge.target, "target_port": edge.target_port}


def workflow_to_dict(wf: Workflow) -> dict[str, Any]:
    """The file-format dict of `wf` (a fresh object; raises `WorkflowFileError` on secrets)."""
    problems: list[Problem] = []
    nodes = []
    for node in wf.nodes.values():
        try:
            nodes.append(node_to_dict(node))
        except WorkflowFileError as exc:
            problems.extend(exc.problems)
    b, s = wf.settings.budget, wf.settings
    try:
        budget = {limit.field: plain(getattr(b, limit.field) if limit.whole else _number(getattr(b, limit.field)))
                  for limit in LIMITS}
        settings = {"budget": budget, "concurrency": plain(s.concurrency), "seed": plain(s.seed)}
        ui = plain(wf.ui, MAX_DEPTH - 1)
    except (_UnsaveableError, RecursionError) as exc:
        problems.append(error("unsaveable", f"The workflow's settings or canvas data hold {exc}, "
                              "which cannot be saved."))
    if problems:
        raise WorkflowFileError(repr(wf.name), problems, action="save")
    out = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "id": wf.id, "name": wf.name,
           "description": wf.description, "settings": settings, "nodes": nodes,
           "edges": [edge_to_dict(e) for e in wf.edges.values()]}
    if wf.contracts:
        out["contracts"] = contracts_to_data(wf.contracts)
    out["ui"] = ui
    return out


def workflow_from_dict(data: Any, *, source: str = "<memory>") -> Workflow:
    """A `Workflow` from a file-format dict of any supported version."""
    if not isinstance(data, dict):
        raise file_error(source, "not_object", f"The top level must be a JSON object, not {_kind(data)}.")
    check_limits(data, source)
    return build_workflow(copy.deepcopy(data), source)


def _kind(value: Any) -> str:
    names = {list: "a list", str: "a text", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), f"a {type(value).__name__}")


def build_workflow(data: dict[str, Any], source: str) -> Workflow:
    """A `Workflow` from a limit-checked dict that this module may take ownership of."""
    data = migrate(data, source)
    if not is_workflow_shaped(data):
        found = structural_problems(data)
        raise WorkflowFileError(source, found or [error("schema", "The document does not match the "
                                                           "workflow schema.")])
    wf = Workflow(data.get("name", "Untitled"), id=data.get("id", ""), description=data.get("description", ""))
    wf.settings = _settings(data.get("settings", {}))
    wf.ui = data.get("ui", {})
    contracts, problems = read_contracts(data.get("contracts"))
    wf.contracts = tuple(contracts)
    for index, raw in enumerate(data.get("nodes", [])):
        node = _node(raw)
        if node.id in wf.nodes:
            problems.append(error("duplicate_node_id", f"At nodes[{index}]: the node id {node.id!r} is used "
                                  "twice.", node_id=node.id, field=f"nodes[{index}].id"))
            continue
        problems.extend(error("secret_param", secret_message(node, p), node_id=node.id,
                              field=f"nodes[{index}].params.{p}") for p in find_secrets(node.params))
        wf.add_node(node)
    for index, raw in enumerate(data.get("edges", [])):
        # the ends' ids and port names as one string object each, shared with the nodes and every edge
        # naming them (a file holds a copy per mention: ~3 MB at 15,000 edges)
        edge = Edge(raw["id"], _shared(raw["source"]), _shared(raw["source_port"]), _shared(raw["target"]),
                    _shared(raw["target_port"]))
        if edge.id in wf.edges:
            problems.append(error("duplicate_edge_id", f"At edges[{index}]: the edge id {edge.id!r} is used "
                                  "twice.", edge_id=edge.id, field=f"edges[{index}].id"))
            continue
        wf.add_edge(edge)
    if problems:
        raise WorkflowFileError(source, problems)
    return wf


def _settings(raw: dict[str, Any]) -> RunSettings:
    return RunSettings(Budget.from_record(raw.get("budget", {})), int(raw.get("concurrency", 8)), int(raw.get("seed", 0)))


def _node(raw: dict[str, Any]) -> Node:
    ui = raw.get("ui", {})
    node_ui = NodeUi(float(ui.get("x", 0.0)), float(ui.get("y", 0.0)), ui.get("color"),
                     ui.get("collapsed", False))
    return Node(_shared(raw["id"]), _shared(raw["role"]), raw.get("title", ""), raw.get("params", {}), node_ui)


def _shared(value: Any) -> Any:
    """`value` as the one interned string of its text (a non-string is left for the schema check to name)."""
    return sys.intern(value) if type(value) is str else value
