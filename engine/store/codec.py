"""Compact JSON for the store's JSON columns, and content keys of recorded calls.

Invariants: JSON is compact (no spaces) and never lossy: a value JSON cannot hold (NaN, an object)
makes encoding raise TypeError/ValueError; canonical JSON sorts keys, so equal values hash equally.
Events themselves are not JSON here: they are stored in packed segments (`engine.store.segments`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_CANONICAL = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, sort_keys=True, allow_nan=False)


def _not_json(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _compact_encoder(*, sort_keys: bool) -> Callable[[object], str] | None:
    """The C encoder of `_ENCODER`'s (or `_CANONICAL`'s) settings, called directly (no per-call set-up).

    No circular-reference markers: a cycle raises RecursionError (reported like any unencodable value).
    """
    if c_make_encoder is None:
        return None
    encode = c_make_encoder(None, _not_json, encode_basestring, None, ":", ",", sort_keys, False, False)

    def compact(value: object) -> str:
        return "".join(encode(value, 0))

    return compact


# Compact JSON; raises TypeError/ValueError for values JSON cannot hold (NaN, objects). Same text as
# `_ENCODER.encode`, through the C encoder directly when there is one.
dumps: Callable[[object], str] = _compact_encoder(sort_keys=False) or _ENCODER.encode
_canonical_dumps: Callable[[object], str] = _compact_encoder(sort_keys=True) or _CANONICAL.encode


def canonical_json(value: object) -> str:
    """Key-sorted compact JSON: equal values give equal text (used for hashes)."""
    return _canonical_dumps(value)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def call_key(kind: str, name: str, request: object) -> str:
    """The key a recorded LLM or tool call is found by: a hash of what was asked of whom.

    `kind` is "llm" or "tool", `name` the model or tool name, `request` the request record
    (`LLMRequest.to_record()`) or the tool arguments. A content key: replay keys calls by structure
    instead (`engine.replay.keys`), with a hash of the canonical request beside it.
    """
    return sha256_hex(canonical_json([kind, name, request]))[:32]
