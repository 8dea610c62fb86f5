"""The JSON Schema (draft 2020-12) of the `*.triadic.json` workflow file, and structural checking.

`WORKFLOW_SCHEMA` is the source of truth; `resources/schema/workflow.schema.json` is its published
copy, written by ``python -m engine.graph.schema`` (a test keeps the two identical).
`structural_problems` reports every schema violation with its JSON path (``nodes[3].params``).

Invariants: the schema checks shape and types only. What the engine thinks of the values (ranges,
unknown roles, dangling edges, negative budgets) is `engine.graph.validate`'s job, so that a file
with such problems can still be opened and fixed. `jsonschema` is imported on first use only.
Node parameters are role-specific: those named in `_PUBLISHED_PARAMS` are described under
`node.params` from the role catalog, as annotations only (a description, no constraint), for the
same reason.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from engine.budget import LIMITS
from engine.graph.problems import Problem, error
from engine.graph.roles import ROLES

FORMAT_NAME = "triadic.workflow"
FRAGMENT_FORMAT_NAME = "triadic.fragment"
_BIG = 1e15  # bounds on numbers, so that every number converts to a finite float
_INT_BOUND = 2**63 - 1

_PUBLISHED_PARAMS = ("concurrency",)


def _param_note(name: str) -> dict[str, Any]:
    """An annotation-only schema of the node param `name`: what it means, for which roles, its range
    and defaults, as the role catalog declares them."""
    specs = [(role.value, p) for role, spec in ROLES.items() if (p := spec.param(name)) is not None]
    first = specs[0][1]
    usual = max((p.default for _, p in specs), key=lambda d: sum(p.default == d for _, p in specs))
    others = [f"{role}: {p.default}" for role, p in specs if p.default != usual]
    low, high = first.minimum, first.maximum
    bounds = first.kind + (f" {low:g} to {high:g}" if low is not None and high is not None else "")
    return {"description": f"{first.help}. Roles: {', '.join(r for r, _ in specs)}; {bounds}; default {usual}"
                           + (f" ({', '.join(others)})" if others else "")
                           + ". Checked by validation, not by this schema."}


_CONTRACT_NOTE = (
    "A trace contract: an assertion over a run's trace, checked after every run. \"kind\" is one of "
    "reviewed_before_output, no_call_after_budget, max_calls (max_calls), max_cost (max_cost, USD), "
    "max_tokens (max_tokens), approve_score (min_score), gated_tool_writes (tools, gates), "
    "max_duration (max_seconds); optional \"name\", and \"nodes\" / \"roles\" to scope it. "
    "Each field is checked when the file is read (engine.graph.contract_form), with its location.")

_DEFS: dict[str, Any] = {
    "contract": {"description": _CONTRACT_NOTE},  # its shape is checked (and located) by contract_form
    "id": {"type": "string", "minLength": 1, "maxLength": 200},
    "number": {"type": "number", "minimum": -_BIG, "maximum": _BIG},
    "integer": {"type": "integer", "minimum": -_INT_BOUND, "maximum": _INT_BOUND},
    "budget": {
        "type": "object",
        "additionalProperties": False,
        "properties": {limit.field: {"$ref": "#/$defs/integer" if limit.whole else "#/$defs/number"}
                       for limit in LIMITS},
    },
    "settings": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "budget": {"$ref": "#/$defs/budget"},
            "concurrency": {"$ref": "#/$defs/integer"},
            "seed": {"$ref": "#/$defs/integer"},
        },
    },
    "node_ui": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "x": {"$ref": "#/$defs/number"},
            "y": {"$ref": "#/$defs/number"},
            "color": {"type": ["string", "null"], "maxLength": 64},
            "collapsed": {"type": "boolean"},
        },
    },
    "node": {
        "type": "object",
        "required": ["id", "role"],
        "additionalProperties": False,
        "properties": {
            "id": {"$ref": "#/$defs/id"},
            "role": {"type": "string", "minLength": 1, "maxLength": 100},
            "title": {"type": "string", "maxLength": 1000},
            "params": {"type": "object", "properties": {n: _param_note(n) for n in _PUBLISHED_PARAMS}},
            "ui": {"$ref": "#/$defs/node_ui"},
        },
    },
    "edge": {
        "type": "object",
        "required": ["id", "source", "source_port", "target", "target_port"],
        "additionalProperties": False,
        "properties": {
            "id": {"$ref": "#/$defs/id"},
            "source": {"$ref": "#/$defs/id"},
            "source_port": {"type": "string", "minLength": 1, "maxLength": 200},
            "target": {"$ref": "#/$defs/id"},
            "target_port": {"type": "string", "minLength": 1, "maxLength": 200},
        },
    },
}

WORKFLOW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:triadic:schema:workflow:3",
    "title": "Triadic workflow",
    "description": "A planner / executor / critic agent workflow: nodes with roles and parameters, "
                   "edges between named ports, run settings, and canvas-only `ui` data.",
    "type": "object",
    "required": ["format", "version"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT_NAME},
        "version": {"const": 3},
        "id": {"type": "string", "maxLength": 200},
        "name": {"type": "string", "maxLength": 1000},
        "description": {"type": "string"},
        "settings": {"$ref": "#/$defs/settings"},
        "nodes": {"type": "array", "items": {"$ref": "#/$defs/node"}},
        "edges": {"type": "array", "items": {"$ref": "#/$defs/edge"}},
        "contracts": {"type": "array", "items": {"$ref": "#/$defs/contract"}},
        "ui": {"type": "object"},
    },
    "$defs": _DEFS,
}

FRAGMENT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:triadic:schema:fragment:2",
    "title": "Triadic workflow fragment (clipboard)",
    "type": "object",
    "required": ["format", "version", "nodes", "edges"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FRAGMENT_FORMAT_NAME},
        "version": {"enum": [1, 2]},
        "nodes": {"type": "array", "items": {"$ref": "#/$defs/node"}},
        "edges": {"type": "array", "items": {"$ref": "#/$defs/edge"}},
    },
    "$defs": _DEFS,
}

_MAX_REPORTED = 50


@cache
def _validator(kind: str) -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(WORKFLOW_SCHEMA if kind == "workflow" else FRAGMENT_SCHEMA)


def json_path(parts: Iterable[object]) -> str:
    """``nodes[3].params`` from ``("nodes", 3, "params")``; ``$`` for the top level."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "$"


def structural_problems(data: object, *, fragment: bool = False) -> list[Problem]:
    """Every schema violation of `data`, each with its JSON path, in document order."""
    validator = _validator("fragment" if fragment else "workflow")
    problems: list[Problem] = []
    def document_order(err: Any) -> list[tuple[int, int | str]]:
        return [(0, p) if isinstance(p, int) else (1, str(p)) for p in err.absolute_path]

    for err in sorted(validator.iter_errors(data), key=document_order):
        path = json_path(err.absolute_path)
        if len(problems) == _MAX_REPORTED:
            problems.append(error("schema", "(further structural errors not listed)", field=path))
            break
        problems.append(error("schema", f"At {path}: {_short(err.message)}", field=path))
    return problems


def _short(message: str) -> str:
    return message if len(message) <= 300 else message[:297] + "..."


def schema_text() -> str:
    """The published form of `WORKFLOW_SCHEMA`: indent 2, trailing newline."""
    return json.dumps(WORKFLOW_SCHEMA, indent=2, ensure_ascii=False) + "\n"


def published_schema_path() -> Path:
    return Path(__file__).resolve().parents[2] / "resources" / "schema" / "workflow.schema.json"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else published_schema_path()
    target.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
