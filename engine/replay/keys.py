"""Structural keys of recorded calls, and the canonical hash of a model request.

Replay finds a recorded call by WHERE in the graph it was made, never by when it completed nor by
what it asked (request-hash keys give identical requests the first response and swap parallel calls):

- a model call's key is its node path (`metadata["node_id"]`, "subgraph/inner" for sub-graph nodes)
  plus the structural metadata the roles put on their requests (round, role, task id, sample, map item,
  tool-loop turn, repair, replan), plus its position among the calls with that same structure (the
  activation / call position / node-level retry attempt, counted in the order the calls are made);
- a tool call's key is its tool, its canonical arguments and its position among identical calls
  (a tool call carries no node to the registry);
- `request_hash` is a hash of the canonical request (model, messages, tools, parameters, metadata) with
  the volatile fields (timeouts, retries, stream, attempt) removed; replay serves a call only when the
  hash of the new request equals the recorded one, and `what_differs` names what changed otherwise.

Invariant: the same sequence of calls gives the same keys whether they are recorded or replayed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.store.codec import canonical_json, sha256_hex

STRUCTURE = ("round", "role", "task_id", "sample", "item_index", "turn", "repair", "replan")
_VOLATILE_META = frozenset({"attempt"})
_HASHED = ("model", "messages", "tools", "temperature", "max_tokens", "api_base", "seed", "metadata")


def structure_of(node_id: str, metadata: dict[str, Any]) -> str:
    """The structural part of a model call's key (its position is added by `KeyCounter`)."""
    parts = [node_id] + [f"{name}={metadata[name]!r}" for name in STRUCTURE if metadata.get(name) is not None]
    return "|".join(parts)


def tool_structure(tool: str, arguments: object) -> str:
    try:
        args = canonical_json(arguments)
    except (TypeError, ValueError, RecursionError):
        args = repr(arguments)
    return f"tool:{tool}|{sha256_hex(args)[:16]}"


class KeyCounter:
    """Adds each call's position among the calls of the same structure: `structure#n` (n from 1)."""

    def __init__(self) -> None:
        self._seen: Counter[str] = Counter()

    def next(self, structure: str) -> str:
        self._seen[structure] += 1
        return f"{structure}#{self._seen[structure]}"


def canonical_request(record: dict[str, Any]) -> dict[str, Any]:
    """The part of `LLMRequest.to_record()` that decides the answer (volatile fields removed)."""
    out = {name: record.get(name) for name in _HASHED}
    meta = out.get("metadata")
    if isinstance(meta, dict):
        out["metadata"] = {k: v for k, v in meta.items() if k not in _VOLATILE_META}
    return out


def request_hash(record: dict[str, Any]) -> str:
    try:
        return sha256_hex(canonical_json(canonical_request(record)))[:32]
    except (TypeError, ValueError, RecursionError):
        return sha256_hex(repr(canonical_request(record)))[:32]


def what_differs(recorded: dict[str, Any], current: dict[str, Any]) -> str:
    """A short account of how `current` differs from `recorded` (both request records)."""
    old, new = canonical_request(recorded), canonical_request(current)
    found: list[str] = []
    for name in _HASHED:
        if old.get(name) == new.get(name):
            continue
        if name == "messages":
            found.append(_messages_differ(old.get("messages") or [], new.get("messages") or []))
        elif name == "metadata":
            a, b = old.get("metadata") or {}, new.get("metadata") or {}
            keys = sorted(k for k in {*a, *b} if a.get(k) != b.get(k))
            found.append(f"metadata {', '.join(keys)}")
        elif name == "model":
            found.append(f"model {old.get('model')} → {new.get('model')}")
        else:
            found.append(f"{name} {old.get(name)!r} → {new.get(name)!r}")
    return "; ".join(found) or "nothing visible (the request hashes differ)"


def _messages_differ(old: list[Any], new: list[Any]) -> str:
    if len(old) != len(new):
        return f"messages: {len(old)} recorded, {len(new)} now"
    for index, (a, b) in enumerate(zip(old, new, strict=True)):
        if a != b:
            role = b.get("role", "?") if isinstance(b, dict) else "?"
            text_a = str(a.get("content", "")) if isinstance(a, dict) else str(a)
            text_b = str(b.get("content", "")) if isinstance(b, dict) else str(b)
            at = next((i for i, (x, y) in enumerate(zip(text_a, text_b, strict=False)) if x != y),
                      min(len(text_a), len(text_b)))
            return (f"messages: message {index + 1} ({role}) differs at character {at}: "
                    f"{text_a[at:at + 40]!r} → {text_b[at:at + 40]!r}")
    return "messages differ"
