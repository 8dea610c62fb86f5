"""A fast yes/no check of a document against a schema of the small subset `engine.graph.schema` uses.

`jsonschema` gives precise messages but needs ~1.5 s for a 5,000-node file; this compiles the same
schema into plain closures that answer "valid or not" in a few milliseconds. Loading runs this first
and asks `jsonschema` for the messages only when the answer is "not valid".

Invariants: semantics follow `jsonschema`'s draft 2020-12 for the supported keywords (booleans are
not numbers; a float with an integral value is an integer); a keyword outside the subset raises
`ValueError` when compiling, so the fast check can never silently accept what the schema rejects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

_SUPPORTED = frozenset({
    "$schema", "$id", "$defs", "title", "description", "type", "const", "required", "properties",
    "additionalProperties", "items", "$ref", "minLength", "maxLength", "minimum", "maximum",
})


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


_TYPES: dict[str, Check] = {
    "string": lambda x: isinstance(x, str),
    "number": _is_number,
    "integer": _is_integer,
    "boolean": lambda x: isinstance(x, bool),
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "null": lambda x: x is None,
}


def compile_schema(schema: Mapping[str, Any]) -> Check:
    """A function telling whether a JSON value satisfies `schema` (a document with ``$defs``)."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    compiled: dict[str, Check] = {}

    def ref(name: str) -> Check:
        if name not in compiled:
            if name not in defs:
                raise ValueError(f"schema reference to unknown definition {name!r}")
            compiled[name] = build(defs[name])
        return compiled[name]

    def build(node: Mapping[str, Any]) -> Check:
        unknown = set(node) - _SUPPORTED
        if unknown:
            raise ValueError(f"schema keyword(s) not supported by the fast check: {sorted(unknown)}")
        keys = set(node) - _ANNOTATIONS
        if keys == {"$ref"}:
            return ref(str(node["$ref"]).removeprefix("#/$defs/"))
        fused = _fused(node, keys, build)
        if fused is not None:
            return fused
        checks: list[Check] = []
        if "$ref" in node:
            checks.append(ref(str(node["$ref"]).removeprefix("#/$defs/")))
        if "type" in node:
            names = node["type"] if isinstance(node["type"], list) else [node["type"]]
            type_checks = [_TYPES[n] for n in names]
            checks.append(type_checks[0] if len(type_checks) == 1 else lambda x: any(t(x) for t in type_checks))
        if "const" in node:
            want = node["const"]
            checks.append(lambda x: isinstance(x, bool) == isinstance(want, bool) and bool(x == want))
        if "minLength" in node or "maxLength" in node:
            lo, hi = node.get("minLength", 0), node.get("maxLength", float("inf"))
            checks.append(lambda x: not isinstance(x, str) or lo <= len(x) <= hi)
        if "minimum" in node or "maximum" in node:
            lo_n, hi_n = node.get("minimum", float("-inf")), node.get("maximum", float("inf"))
            checks.append(lambda x: not _is_number(x) or lo_n <= x <= hi_n)
        if "required" in node or "properties" in node or "additionalProperties" in node:
            checks.append(_object_check(node, build))
        if "items" in node:
            item = build(node["items"])
            checks.append(lambda x: not isinstance(x, list) or all(item(v) for v in x))
        return _all_of(checks)

    return build({k: v for k, v in schema.items() if k != "$defs"})


_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description"})
_OBJECT_KEYS = frozenset({"type", "required", "properties", "additionalProperties"})


def _fused(node: Mapping[str, Any], keys: set[str], build: Callable[[Mapping[str, Any]], Check]) -> Check | None:
    """One closure for the common shapes (a typed string with lengths, a bounded number, a typed
    object with properties), the same answer as the general chain with fewer calls per value: a
    5,000-node file is ~300,000 values; None for any other shape."""
    kind = node.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        return None
    if kind == "string" and keys <= {"type", "minLength", "maxLength"}:
        lo, hi = node.get("minLength", 0), node.get("maxLength", float("inf"))
        return lambda x: isinstance(x, str) and lo <= len(x) <= hi
    if kind in ("number", "integer") and keys <= {"type", "minimum", "maximum"}:
        lo_n, hi_n = node.get("minimum", float("-inf")), node.get("maximum", float("inf"))
        typed = _TYPES[kind]
        return lambda x: typed(x) and lo_n <= x <= hi_n
    if kind == "object" and keys <= _OBJECT_KEYS and keys != {"type"}:
        members = _object_check(node, build)
        return lambda x: isinstance(x, dict) and members(x)
    return None


def _all_of(checks: list[Check]) -> Check:
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda x: first(x) and second(x)
    return lambda x: all(c(x) for c in checks)


def _object_check(node: Mapping[str, Any], build: Callable[[Mapping[str, Any]], Check]) -> Check:
    required = tuple(node.get("required", ()))
    props = {k: build(v) for k, v in node.get("properties", {}).items()}
    closed = node.get("additionalProperties", True) is False

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        if any(k not in x for k in required):
            return False
        for key, value in x.items():
            sub = props.get(key)
            if sub is None:
                if closed:
                    return False
            elif not sub(value):
                return False
        return True

    return check
