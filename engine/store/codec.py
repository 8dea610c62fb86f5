"""Compact JSON encoding of events for the store, and the keys replay looks recorded calls up by.

Invariants:
- `encode_payload(event)` keeps only what `event_from_record` needs beyond the columns the events
  table already holds (kind, seq, ts, span_id, parent_id): fields equal to their dataclass default
  (same type and value) are dropped, so `decode_payload` + `event_from_record` rebuild an equal event;
- bodies of LLM / tool calls (request, response, arguments, result) are cut out of the event payload
  when the event has a span id, because they are stored once in `recorded_calls` (see `CALL_BODIES`);
  an `llm_finished` payload then omits `content` when it equals the response's content (restored on
  read by `restore_call_body`); otherwise it always carries `content` explicitly;
- token deltas are stored as per-span chunks: `encode_delta_chunk` packs the deltas of one span into
  one BLOB of three parallel arrays (seq offsets, exact float64 timestamps, texts) — no row and no
  JSON object per delta (about 12 bytes plus the text per delta);
- JSON is compact (no spaces) and never lossy: a value JSON cannot hold makes encoding raise.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable
from dataclasses import MISSING, fields
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from engine.events import EVENT_TYPES, Event, LLMTokenDelta
from engine.store.payload_json import make_value_encoder, payload_encoder

COLUMN_FIELDS = frozenset({"kind", "run_id", "seq", "ts", "span_id", "parent_id"})

# event kind -> the field whose body lives in recorded_calls (request or response column)
CALL_BODIES: dict[str, tuple[str, str]] = {
    "llm_started": ("request", "request"),
    "llm_finished": ("response", "response"),
    "tool_started": ("arguments", "request"),
    "tool_finished": ("result", "response"),
}

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_CANONICAL = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, sort_keys=True, allow_nan=False)


def _defaults(cls: type[Event]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(cls):
        if f.name in COLUMN_FIELDS:
            continue
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:
            out[f.name] = f.default_factory()
    return out


_DEFAULTS: dict[str, dict[str, Any]] = {kind: _defaults(cls) for kind, cls in EVENT_TYPES.items()}
_FIELD_NAMES: dict[str, tuple[str, ...]] = {
    kind: tuple(f.name for f in fields(cls) if f.name not in COLUMN_FIELDS) for kind, cls in EVENT_TYPES.items()
}
_NO_DEFAULT: Any = object()
# kind -> (field name, its default or _NO_DEFAULT) for the payload fields, in field order
_PAYLOAD_FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    kind: tuple((name, _DEFAULTS[kind].get(name, _NO_DEFAULT)) for name in names)
    for kind, names in _FIELD_NAMES.items()
}


def _not_json(value: object) -> Any:
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


_VALUE = make_value_encoder(dumps)
_PAYLOAD_ENCODERS: dict[str, Callable[[Event], str]] = {
    kind: payload_encoder(kind, fields, _NO_DEFAULT, _VALUE) for kind, fields in _PAYLOAD_FIELDS.items()
}



def _stripped(kind: str, *, content: bool) -> Callable[[Event], str]:
    """The encoder of a call event's payload without its body (and for `llm_finished`, with `content`
    always written, or never)."""
    body = CALL_BODIES[kind][0]
    fields = [(name, _NO_DEFAULT if name == "content" else default)
              for name, default in _PAYLOAD_FIELDS[kind] if name != body and (content or name != "content")]
    return payload_encoder(f"{kind}_stripped", fields, _NO_DEFAULT, _VALUE)


_STRIPPED_ENCODERS = {kind: _stripped(kind, content=True) for kind in CALL_BODIES}
_STRIPPED_ENCODERS["llm_finished:no-content"] = _stripped("llm_finished", content=False)


def canonical_json(value: object) -> str:
    """Key-sorted compact JSON: equal values give equal text (used for hashes)."""
    return _canonical_dumps(value)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def call_key(kind: str, name: str, request: object) -> str:
    """The key a recorded LLM or tool call is found by: a hash of what was asked of whom.

    `kind` is "llm" or "tool", `name` the model or tool name, `request` the request record
    (`LLMRequest.to_record()`) or the tool arguments. Replay computes the same key for a live request.
    """
    return sha256_hex(canonical_json([kind, name, request]))[:32]


def encode_call_request(kind: str, name: str, request: object) -> tuple[str, str]:
    """The stored text of a call's request (key-sorted compact JSON) and its `call_key`, encoding it once."""
    text = _canonical_dumps(request)
    head = f"{encode_basestring(kind)},{encode_basestring(name)}" if type(kind) is str and type(name) is str \
        else f"{_canonical_dumps(kind)},{_canonical_dumps(name)}"
    return text, sha256_hex(f"[{head},{text}]")[:32]


def encode_payload(event: Event, *, strip_body: bool) -> str:
    """The event's fields minus columns and defaults (and minus its call body when `strip_body`).

    Reads the fields directly (no deep copy); a value JSON cannot hold directly (e.g. a nested
    dataclass) is retried through `Event.to_record()`, the events' own serialization.
    """
    kind = event.kind
    if kind not in CALL_BODIES:  # the common case: every non-default field, read straight off the event
        try:
            return _PAYLOAD_ENCODERS[kind](event)
        except TypeError:
            return dumps(_payload_fields(event, strip_body, event.to_record()))
    try:
        if strip_body:
            if kind == "llm_finished":  # content once: omitted when the recorded response holds the same text
                content, response = event.content, event.response  # type: ignore[attr-defined]
                same = bool(content) and isinstance(response, dict) and response.get("content") == content
                return _STRIPPED_ENCODERS["llm_finished:no-content" if same else kind](event)
            return _STRIPPED_ENCODERS[kind](event)
        return dumps(_payload_fields(event, strip_body, {n: getattr(event, n) for n in _FIELD_NAMES[kind]}))
    except TypeError:
        return dumps(_payload_fields(event, strip_body, event.to_record()))


def _payload_fields(event: Event, strip_body: bool, values: dict[str, Any]) -> dict[str, Any]:
    defaults = _DEFAULTS[event.kind]
    body = CALL_BODIES[event.kind][0] if strip_body and event.kind in CALL_BODIES else None
    out: dict[str, Any] = {}
    for name, value in values.items():
        if name in COLUMN_FIELDS or name == body:
            continue
        if name in defaults:
            default = defaults[name]
            if type(value) is type(default) and value == default:
                continue
        out[name] = value
    if body == "response":  # the reply text is already in the recorded response: keep it once
        content, response = values.get("content"), values.get("response")
        if content and isinstance(response, dict) and response.get("content") == content:
            out.pop("content", None)
        else:
            out["content"] = content
    return out


def restore_call_body(kind: str, fields: dict[str, Any], request: str | None, response: str | None) -> None:
    """Put a call body cut out by `encode_payload` back into decoded payload `fields` (in place)."""
    name, column = CALL_BODIES[kind]
    stored = request if column == "request" else response
    if name in fields or stored is None:
        return
    fields[name] = json.loads(stored)
    if kind == "llm_finished" and "content" not in fields and isinstance(fields[name], dict):
        content = fields[name].get("content")
        if isinstance(content, str):
            fields["content"] = content


def event_record(
    *, run_id: str, seq: int, ts: float, kind: str, span_id: str | None, parent_id: str | None,
    payload: dict[str, Any],
) -> dict[str, Any]:
    """The `to_record()`-shaped dict of a stored event (feed it to `event_from_record`)."""
    record = dict(payload)
    record.update(kind=kind, run_id=run_id, seq=seq, ts=ts, span_id=span_id, parent_id=parent_id)
    return record


def pack_deltas(offsets: list[int], stamps: list[float], texts: list[str]) -> bytes:
    """The chunk format: tag byte (1: uint16 offsets, 2: uint32), count, offsets, float64 ts, texts JSON.

    Timestamps are kept exactly (8-byte doubles); texts as one JSON array (lone surrogates survive).
    """
    n = len(offsets)
    wide = max(offsets, default=0) > 0xFFFF
    head = struct.pack(f"<BI{n}{'I' if wide else 'H'}{n}d", 2 if wide else 1, n, *offsets, *stamps)
    return head + dumps(texts).encode("utf-8", "surrogatepass")


def unpack_deltas(data: bytes) -> tuple[tuple[int, ...], tuple[float, ...], list[str]]:
    tag, n = struct.unpack_from("<BI", data)
    if tag not in (1, 2):
        raise ValueError(f"unknown token-delta chunk format {tag}")
    layout = f"<{n}{'I' if tag == 2 else 'H'}{n}d"
    values = struct.unpack_from(layout, data, 5)
    texts = json.loads(data[5 + struct.calcsize(layout):].decode("utf-8", "surrogatepass"))
    return values[:n], values[n:], texts


def encode_delta_chunk(deltas: list[LLMTokenDelta]) -> bytes:
    """Pack deltas of one span (ascending seq) into one chunk (see `pack_deltas`)."""
    first = deltas[0].seq
    return pack_deltas([d.seq - first for d in deltas], [d.ts for d in deltas], [d.text for d in deltas])


def decode_delta_chunk(
    data: bytes, *, run_id: str, first_seq: int, span_id: str | None, parent_id: str | None
) -> list[LLMTokenDelta]:
    offsets, stamps, texts = unpack_deltas(data)
    return [
        LLMTokenDelta(run_id=run_id, seq=first_seq + off, ts=ts, span_id=span_id, parent_id=parent_id, text=text)
        for off, ts, text in zip(offsets, stamps, texts, strict=True)
    ]
