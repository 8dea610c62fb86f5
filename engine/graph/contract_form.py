"""Trace contracts as the workflow file holds them: the declarative form, its kinds, reading and writing.

A contract is an assertion over a run's trace, kept in the workflow file's top-level ``contracts``
list (format version 2 on). Each entry is an object with a ``kind`` and that kind's fields:

- ``reviewed_before_output``: every output of an executor reaches a critic's verdict before an Output
  node produces the run's result (scope: ``nodes`` / ``roles``, executors by default);
- ``no_call_after_budget``: no model call starts after a budget was hit;
- ``max_calls`` / ``max_cost`` (USD) / ``max_tokens``: at most that many model calls, dollars, tokens;
- ``approve_score``: every approving verdict has a score of at least ``min_score``;
- ``gated_tool_writes``: no call to one of ``tools`` (the tools that write) unless a human gate
  (any, or one of ``gates``) approved earlier in the run;
- ``max_duration``: the run ends within ``max_seconds``.

Every kind takes an optional ``name``; scoped kinds take ``nodes`` (node ids) and ``roles``.

Invariants: `read_contracts` reports every malformed field at once, each located in the file
(``contracts[2].max_cost: expected a number, not "abc"``), and never keeps the caller's objects;
`contract_to_dict` writes exactly the fields a contract holds, so save → load → save is identical.
Whether the names refer to nodes and tools of the workflow is validation's job (`contract_checks`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from engine.graph.problems import Problem, error


@dataclass(frozen=True, slots=True)
class ContractKind:
    label: str
    limit_field: str | None = None  # the field holding the kind's figure
    whole: bool = False  # the figure is a whole number
    maximum: float | None = None
    scoped: bool = True  # takes `nodes` / `roles`
    tools: bool = False  # takes `tools` (required) and `gates`
    default_roles: tuple[str, ...] = ()


KINDS: dict[str, ContractKind] = {
    "reviewed_before_output": ContractKind("Every executor output reaches a critic before an output",
                                           default_roles=("executor",)),
    "no_call_after_budget": ContractKind("No model call after a budget was hit"),
    "max_calls": ContractKind("At most N model calls", "max_calls", whole=True),
    "max_cost": ContractKind("At most $X", "max_cost"),
    "max_tokens": ContractKind("At most N tokens", "max_tokens", whole=True),
    "approve_score": ContractKind("Every approving verdict scores at least T", "min_score", maximum=1.0,
                                  default_roles=()),
    "gated_tool_writes": ContractKind("No writing tool call unless a human gate approved", tools=True),
    "max_duration": ContractKind("The run ends within T seconds", "max_seconds", scoped=False),
}

_MAX_LIST = 1000
_MAX_TEXT = 200


@dataclass(frozen=True, slots=True)
class Contract:
    kind: str
    name: str = ""
    limit: float | None = None
    nodes: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    gates: tuple[str, ...] = ()

    @property
    def spec(self) -> ContractKind:
        return KINDS[self.kind]

    def title(self) -> str:
        """The contract's name, or what it asserts."""
        if self.name:
            return self.name
        spec = self.spec
        text = spec.label
        if spec.limit_field is not None and self.limit is not None:
            figure = f"{self.limit:g}"
            text = text.replace("$X", f"${figure}").replace(" N ", f" {figure} ").replace(" T", f" {figure}")
        if self.nodes or self.roles:
            text += f" ({', '.join((*self.nodes, *self.roles))})"
        return text

    def scoped_roles(self) -> tuple[str, ...]:
        """The roles in scope: the given ones, or the kind's default when no node or role is given."""
        if self.nodes or self.roles:
            return self.roles
        return self.spec.default_roles


def contract_to_dict(contract: Contract) -> dict[str, Any]:
    spec = contract.spec
    out: dict[str, Any] = {"kind": contract.kind}
    if contract.name:
        out["name"] = contract.name
    if spec.limit_field is not None and contract.limit is not None:
        out[spec.limit_field] = int(contract.limit) if spec.whole else float(contract.limit)
    for key in ("nodes", "roles", "tools", "gates"):
        values = getattr(contract, key)
        if values:
            out[key] = list(values)
    return out


def contracts_to_data(contracts: list[Contract] | tuple[Contract, ...]) -> list[dict[str, Any]]:
    return [contract_to_dict(c) for c in contracts]


def read_contracts(data: Any, *, where: str = "contracts") -> tuple[list[Contract], list[Problem]]:
    """The contracts `data` (a file's ``contracts`` value) holds, and every problem of its form."""
    if data is None:
        return [], []
    if not isinstance(data, list):
        return [], [_problem(where, f"expected a list of contracts, not {_kind(data)}")]
    contracts: list[Contract] = []
    problems: list[Problem] = []
    for index, raw in enumerate(data):
        found = _read_one(raw, f"{where}[{index}]", problems)
        if found is not None:
            contracts.append(found)
    return contracts, problems


def _read_one(raw: Any, where: str, problems: list[Problem]) -> Contract | None:
    if not isinstance(raw, dict):
        problems.append(_problem(where, f"expected an object with a \"kind\", not {_kind(raw)}"))
        return None
    kind = raw.get("kind")
    if kind not in KINDS:
        told = "missing" if kind is None else f"unknown kind {kind!r:.60}"
        problems.append(_problem(f"{where}.kind", f"{told}; one of: {', '.join(KINDS)}"))
        return None
    spec = KINDS[kind]
    before = len(problems)
    allowed = {"kind", "name", *((spec.limit_field,) if spec.limit_field else ()),
               *(("nodes", "roles") if spec.scoped else ()), *(("tools", "gates") if spec.tools else ())}
    for key in raw:
        if key not in allowed:
            problems.append(_problem(f"{where}.{key}", f"not a field of a {kind} contract "
                                     f"(its fields: {', '.join(sorted(allowed))})"))
    name = raw.get("name", "")
    if not isinstance(name, str) or len(name) > _MAX_TEXT:
        problems.append(_problem(f"{where}.name", f"expected a text of at most {_MAX_TEXT} characters"))
    limit = _limit(raw, spec, where, problems) if spec.limit_field else None
    lists = {key: _names(raw.get(key), f"{where}.{key}", problems) for key in ("nodes", "roles", "tools", "gates")}
    if spec.tools and not lists["tools"] and "tools" not in raw:
        problems.append(_problem(f"{where}.tools", "required: the names of the tools that write"))
    if len(problems) > before:
        return None
    return Contract(kind, name, limit, lists["nodes"], lists["roles"], lists["tools"], lists["gates"])


def _limit(raw: dict[str, Any], spec: ContractKind, where: str, problems: list[Problem]) -> float | None:
    field = spec.limit_field
    assert field is not None
    here = f"{where}.{field}"
    if field not in raw:
        problems.append(_problem(here, f"required for a {raw['kind']} contract"))
        return None
    value = raw[field]
    wanted = "a whole number" if spec.whole else "a number"
    if isinstance(value, bool) or not isinstance(value, int | float) or (spec.whole and not _whole(value)):
        problems.append(_problem(here, f"expected {wanted}, not {_shown(value)}"))
        return None
    if not math.isfinite(value) or value < 0 or (spec.maximum is not None and value > spec.maximum):
        top = f" and at most {spec.maximum:g}" if spec.maximum is not None else ""
        problems.append(_problem(here, f"expected {wanted} of at least 0{top}, not {_shown(value)}"))
        return None
    return float(value)


def _whole(value: float) -> bool:
    return isinstance(value, int) or (math.isfinite(value) and value == int(value))


def _names(value: Any, where: str, problems: list[Problem]) -> tuple[str, ...]:
    if value is None:
        return ()
    if (not isinstance(value, list) or len(value) > _MAX_LIST
            or not all(isinstance(v, str) and 0 < len(v) <= _MAX_TEXT for v in value)):
        problems.append(_problem(where, f"expected a list of names (texts), not {_shown(value)}"))
        return ()
    return tuple(value)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value[:40]}"' + ("..." if len(value) > 40 else "")
    if isinstance(value, dict | list):
        return _kind(value)
    return repr(value)


def _kind(value: Any) -> str:
    names = {list: "a list", dict: "an object", str: "a text", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), f"a {type(value).__name__}")


def _problem(where: str, message: str) -> Problem:
    return error("bad_contract", f"{where}: {message}", field=where)
