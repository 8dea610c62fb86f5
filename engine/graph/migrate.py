"""Versions of the workflow file format and the chain of migrations that brings a document up to date.

`FORMAT_VERSION` is the version this build writes. `MIGRATIONS[v]` turns a version-`v` document into
a version-`v+1` one; `migrate` applies the chain. Version 0 is the pre-release format: no ``format``
key, nodes with ``"type"`` instead of ``"role"`` and ``"pos": [x, y]`` instead of ``ui``, edges as
``"from": "node.port", "to": "node.port"`` strings (edge ids optional). Version 2 adds the optional
top-level ``contracts`` list (`engine.graph.contract_form`); a version-1 document has none. Version 3
renames two fields called ``max_turns`` that counted different things: the run budget's (model calls
in the run) is ``settings.budget.max_model_calls``, an executor's (model turns of its tool loop) is
its ``max_tool_turns`` param. The workflow hash is computed over the version-2 spelling
(`engine.graph.format.document_hash`), so a workflow keeps its hash, and the runs stored before the
rename still find it.

Invariants: a migration never mutates its input (it works on a deep copy); it converts what it
recognises and leaves anything else in place for the schema to report; a document newer than
`FORMAT_VERSION` is refused with a message saying so, never guessed at.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine.graph.problems import Problem, WorkflowFileError, error, file_error
from engine.graph.schema import FORMAT_NAME

FORMAT_VERSION = 3

Migration = Callable[[dict[str, Any]], dict[str, Any]]


def document_version(data: dict[str, Any], source: str) -> int:
    """The format version a document declares (0 for a pre-release document without one)."""
    if "version" not in data:
        if "format" in data:
            raise file_error(source, "no_version", "The document has no \"version\".", field="version")
        if "nodes" not in data:
            raise file_error(source, "not_workflow", "This is not a Triadic workflow: it has no "
                             "\"format\": \"triadic.workflow\" and no \"nodes\".", field="format")
        return 0
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise file_error(source, "bad_version", f"\"version\" must be a whole number, not {version!r:.40}.",
                         field="version")
    if version > FORMAT_VERSION:
        raise file_error(source, "newer_version", f"This file was made by a newer Triadic (version {version}); "
                         f"this one reads up to {FORMAT_VERSION}.", field="version")
    if version < 0:
        raise file_error(source, "bad_version", f"Unknown format version {version}.", field="version")
    return version


def migrate(data: dict[str, Any], source: str) -> dict[str, Any]:
    """`data` brought up to `FORMAT_VERSION` (the same object when it already is)."""
    version = document_version(data, source)
    if version == FORMAT_VERSION:
        return data
    data = copy.deepcopy(data)
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    problems = data.pop("__problems__", [])
    if problems:
        raise WorkflowFileError(source, problems)
    return data


def _v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
    problems: list[Problem] = []
    out: dict[str, Any] = {"format": FORMAT_NAME, "version": 1}
    out.update({k: v for k, v in data.items() if k not in ("version", "nodes", "edges")})
    nodes = data.get("nodes", [])
    out["nodes"] = [_v0_node(n) for n in nodes] if isinstance(nodes, list) else nodes
    edges = data.get("edges", [])
    if isinstance(edges, list):
        out["edges"] = [_v0_edge(e, i, problems) for i, e in enumerate(edges)]
    else:
        out["edges"] = edges
    if problems:
        out["__problems__"] = problems
    return out


def _v0_node(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    node = dict(node)
    if "type" in node and "role" not in node:
        node["role"] = node.pop("type")
    pos = node.get("pos")
    if isinstance(pos, list) and len(pos) == 2:
        del node["pos"]
        node["ui"] = {"x": pos[0], "y": pos[1], "color": node.pop("color", None), "collapsed": False}
    return node


def _v0_edge(edge: Any, index: int, problems: list[Problem]) -> Any:
    if not isinstance(edge, dict) or "from" not in edge or "to" not in edge:
        return edge
    out: dict[str, Any] = {"id": edge.get("id", f"e{index + 1}")}
    for key, node_key, port_key in (("from", "source", "source_port"), ("to", "target", "target_port")):
        ref = edge[key]
        if not isinstance(ref, str) or "." not in ref.strip("."):
            problems.append(error("bad_endpoint", f"At edges[{index}].{key}: {ref!r:.60} is not of the form "
                                  "\"node.port\".", field=f"edges[{index}].{key}"))
            return edge
        out[node_key], out[port_key] = ref.rsplit(".", 1)
    return out


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    out["version"] = 2
    return out


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    out["version"] = 3
    settings = out.get("settings")
    if isinstance(settings, dict) and isinstance(settings.get("budget"), dict):
        out["settings"] = {**settings, "budget": _renamed(settings["budget"], "max_turns", "max_model_calls")}
    nodes = out.get("nodes")
    if isinstance(nodes, list):
        out["nodes"] = [_v3_node(n) for n in nodes]
    return out


def _v3_node(node: Any, old: str = "max_turns", new: str = "max_tool_turns") -> Any:
    if not isinstance(node, dict) or node.get("role") != "executor" or not isinstance(node.get("params"), dict):
        return node
    params = _renamed(node["params"], old, new)
    return node if params is node["params"] else {**node, "params": params}


def v2_spelling(settings: Any, nodes: list[Any]) -> tuple[Any, list[Any]]:
    """`settings` and `nodes` of a current document with the fields version 3 renamed spelt as in
    version 2: what the workflow hash is computed over, so the rename leaves every hash as it was."""
    if isinstance(settings, dict) and isinstance(settings.get("budget"), dict):
        settings = {**settings, "budget": _renamed(settings["budget"], "max_model_calls", "max_turns")}
    return settings, [_v3_node(n, "max_tool_turns", "max_turns") for n in nodes]


def _renamed(fields: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """`fields` with key `old` called `new`, in the same place (a file that has both keeps both: the
    schema or validation then names the one that is not known)."""
    if old not in fields or new in fields:
        return fields
    return {new if k == old else k: v for k, v in fields.items()}


MIGRATIONS: dict[int, Migration] = {0: _v0_to_v1, 1: _v1_to_v2, 2: _v2_to_v3}
