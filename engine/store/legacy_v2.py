"""Reading events stored the schema-2 way, for the migration to event segments (and nothing else).

Schema 2 kept one `events` row per event (JSON payload without columns and defaults, call bodies cut
out into `recorded_calls`), token deltas packed per span in `delta_chunks` (tag byte, count, seq
offsets, float64 timestamps, texts as JSON), and derived `spans`. `pack_deltas` is also the format
the schema 1 → 2 step writes.
"""

from __future__ import annotations

import json
import struct
from typing import Any

from sqlalchemy import Connection

from engine.events import Event, LLMTokenDelta, event_from_record

# event kind -> the field whose body lives in recorded_calls (request or response column)
_CALL_BODIES: dict[str, tuple[str, str]] = {
    "llm_started": ("request", "request"),
    "llm_finished": ("response", "response"),
    "tool_started": ("arguments", "request"),
    "tool_finished": ("result", "response"),
}


def pack_deltas(offsets: list[int], stamps: list[float], texts: list[str]) -> bytes:
    n = len(offsets)
    wide = max(offsets, default=0) > 0xFFFF
    head = struct.pack(f"<BI{n}{'I' if wide else 'H'}{n}d", 2 if wide else 1, n, *offsets, *stamps)
    text = json.dumps(texts, ensure_ascii=False, separators=(",", ":"))
    return head + text.encode("utf-8", "surrogatepass")


def unpack_deltas(data: bytes) -> tuple[tuple[int, ...], tuple[float, ...], list[str]]:
    tag, n = struct.unpack_from("<BI", data)
    if tag not in (1, 2):
        raise ValueError(f"unknown token-delta chunk format {tag}")
    layout = f"<{n}{'I' if tag == 2 else 'H'}{n}d"
    values = struct.unpack_from(layout, data, 5)
    texts = json.loads(data[5 + struct.calcsize(layout):].decode("utf-8", "surrogatepass"))
    return values[:n], values[n:], texts


def load_run_events(conn: Connection, run_pk: int, run_id: str) -> list[Event]:
    """Every stored event of one run from the schema-2 tables, in seq order, bodies restored."""
    bodies: dict[tuple[str, str], str] = {}
    for span_id, request, response in conn.exec_driver_sql(
            "SELECT span_id, request, response FROM recorded_calls WHERE run_pk = ?", (run_pk,)):
        if request is not None:
            bodies[(span_id, "request")] = request
        if response is not None:
            bodies[(span_id, "response")] = response
    events: list[Event] = []
    for seq, ts, kind, span_id, parent_id, payload in conn.exec_driver_sql(
            "SELECT seq, ts, kind, span_id, parent_id, payload FROM events WHERE run_pk = ?", (run_pk,)):
        fields: dict[str, Any] = json.loads(payload)
        if kind in _CALL_BODIES and span_id is not None:
            _restore_body(kind, fields, bodies.get((span_id, _CALL_BODIES[kind][1])))
        fields.update(kind=kind, run_id=run_id, seq=seq, ts=ts, span_id=span_id, parent_id=parent_id)
        events.append(event_from_record(fields))
    for first, span_id, parent_id, data in conn.exec_driver_sql(
            "SELECT first_seq, span_id, parent_id, data FROM delta_chunks WHERE run_pk = ?", (run_pk,)):
        offsets, stamps, texts = unpack_deltas(data)
        events += [LLMTokenDelta(run_id=run_id, seq=first + off, ts=ts, span_id=span_id, parent_id=parent_id,
                                 text=text) for off, ts, text in zip(offsets, stamps, texts, strict=True)]
    events.sort(key=lambda e: e.seq)
    return events


def _restore_body(kind: str, fields: dict[str, Any], stored: str | None) -> None:
    name = _CALL_BODIES[kind][0]
    if name in fields or stored is None:
        return
    fields[name] = json.loads(stored)
    if kind == "llm_finished" and "content" not in fields and isinstance(fields[name], dict):
        content = fields[name].get("content")
        if isinstance(content, str):
            fields["content"] = content
