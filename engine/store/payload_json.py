"""Per-event-kind JSON encoders of event payloads: the same text as `codec.dumps` of the payload dict,
without building the dict or walking it generically.

Invariants: `payload_encoder(kind, fields)` returns a function of an event that gives exactly
`dumps({name: value for each (name, default) in fields if value is not its default})` — fields in the
given order, a value dropped only when it has its default's type and equals it (as `encode_payload`
always did). Strings, ints, finite floats, bools and None are written directly (as `json` writes
them); anything else goes through `dumps`, so what JSON cannot hold still raises (TypeError for
objects, ValueError for NaN/infinity) and the caller's fallback applies.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from engine.events import Event

_int_repr = int.__repr__
_float_repr = float.__repr__
_isfinite = math.isfinite


def make_value_encoder(dumps: Callable[[object], str]) -> Callable[[Any], str]:
    def value(v: Any) -> str:
        t = type(v)
        if t is str:
            return encode_basestring(v)  # type: ignore[no-any-return]
        if t is int:
            return _int_repr(v)
        if t is float:
            if not _isfinite(v):
                raise ValueError(f"Out of range float values are not JSON compliant: {v!r}")
            return _float_repr(v)
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        return dumps(v)

    return value


def payload_encoder(kind: str, fields: Sequence[tuple[str, Any]], no_default: Any,
                    value: Callable[[Any], str]) -> Callable[[Event], str]:
    """The encoder of one kind's payload; `fields` are (name, default or `no_default`) in order."""
    env: dict[str, Any] = {"_value": value}
    body = ["def encode(event):", "    parts = []"]
    for i, (name, default) in enumerate(fields):
        env[f"_k{i}"] = encode_basestring(name) + ":"
        body.append(f"    v = event.{name}")
        if default is no_default:
            body.append(f"    parts.append(_k{i} + _value(v))")
        else:
            env[f"_d{i}"], env[f"_t{i}"] = default, type(default)
            body.append(f"    if type(v) is not _t{i} or v != _d{i}:")
            body.append(f"        parts.append(_k{i} + _value(v))")
    body.append('    return "{" + ",".join(parts) + "}"')
    namespace: dict[str, Any] = {}
    exec("\n".join(body), env, namespace)
    encode: Callable[[Event], str] = namespace["encode"]
    encode.__qualname__ = f"encode_{kind}_payload"
    return encode
