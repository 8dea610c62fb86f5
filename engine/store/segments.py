"""Event segments: a run's events stored as packed, compressed blocks — one row per batch, not per event.

A segment is a format byte followed by compressed MessagePack of `[fields, rows]` (Zstandard level 1
now: ~4x faster than zlib level 1 here, and smaller; the first segments used zlib):
- `fields` maps each event kind in the segment to the names of its payload fields, in the order the
  rows hold their values (so decoding goes by name: a kind that gains a field in a later version
  still reads older segments, the missing field taking its default);
- `rows` holds one array per event, in append order. `FORMAT_EVENT_TUPLES` (written now): each row is
  the event's row (`engine.event_record.record_row`), `[kind, run_id, seq, ts, span_id, parent_id,
  *values]`, taken by each class's row getter. `FORMAT_ZLIB_MSGPACK` (read only, the first segments): `[kind, seq, ts,
  span_id, parent_id, *values]`, the run id coming from the segment's run.
  In both, a row whose kind starts with `~` is `[~kind, seq, ts, span_id, parent_id, json]`: its
  payload as one JSON text (see below).

Invariants:
- lossless for what events hold: str (lone surrogates too), int, float (NaN and infinities too),
  bool, None, bytes, lists, dicts with str or int keys; tuples come back as lists (as through JSON);
- a segment is packed by `engine.store.packing.pack` (ormsgpack, or msgpack where it refuses: the same bytes);
- an event whose values MessagePack cannot hold (an int beyond 64 bits, a nested dataclass) is stored
  from `Event.to_record()` as JSON text; one that JSON cannot hold either is not stored and is returned
  as failed, with the reason — the others of its segment are stored;
- decoding never needs anything but the segment and the run id; no code is ever loaded from a segment.
"""

from __future__ import annotations

import json
import operator
import zlib
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any

import msgpack  # type: ignore[import-untyped]
import zstandard

from engine.event_record import record_row
from engine.events import EVENT_TYPES, Event, event_from_record
from engine.store.packing import PACK_ERRORS, compress, pack, unpack

FORMAT_ZLIB_MSGPACK = b"\x01"  # zlib, rows without the run id (read only)
FORMAT_EVENT_TUPLES = b"\x02"  # zstd, rows are the events' rows (record_row)
ENVELOPE = ("kind", "seq", "ts", "span_id", "parent_id")
_ENVELOPE_FIELDS = frozenset({*ENVELOPE, "run_id"})
PAYLOAD_FIELDS: dict[str, list[str]] = {
    kind: [f.name for f in fields(cls) if f.name not in _ENVELOPE_FIELDS] for kind, cls in EVENT_TYPES.items()
}
# each registered event class's row getter (a C-level attrgetter: `record_row` without a Python call)
_ROWS: dict[type[Event], Callable[[Event], tuple[Any, ...]]] = {cls: cls._row for cls in EVENT_TYPES.values()}  # type: ignore[attr-defined]
_TS = operator.attrgetter("ts")
SEGMENT_EVENTS = 1000  # events per segment at most (a read of a seq range decodes whole segments)


def segment_bounds(events: Sequence[Event]) -> tuple[int, int, int, float]:
    """The segment row's (first_seq, last_seq, count, last_ts) for these events, given in ascending seq
    order as a segment holds them (`BatchWriter` takes a run's events only in that order)."""
    return events[0].seq, events[-1].seq, len(events), max(map(_TS, events))


def _surrogates_packer() -> Any:
    """A new msgpack Packer (one is not thread-safe) that keeps lone surrogates: it packs every string
    through an encoder call (~1.5x slower), so it is only the fallback."""
    return msgpack.Packer(unicode_errors="surrogatepass")


def encode_segment(events: Sequence[Event]) -> tuple[bytes | None, list[tuple[Event, str]]]:
    """The segment of `events` (None if none could be stored) and the events not stored, with why."""
    classes: set[type[Event]] = set(map(type, events))
    header = {cls.kind: PAYLOAD_FIELDS[cls.kind] for cls in classes}
    body: bytes | None
    try:
        rows = _ROWS
        body = pack([header, [rows[type(event)](event) for event in events]])  # a foreign class: KeyError
        failed: list[tuple[Event, str]] = []
    except (*PACK_ERRORS, KeyError):
        body, failed = _encode_one_by_one(_surrogates_packer(), header, events)
        if body is None:
            return None, failed
    return FORMAT_EVENT_TUPLES + compress(body), failed


def _encode_one_by_one(packer: Any, header: dict[str, list[str]],
                       events: Sequence[Event]) -> tuple[bytes | None, list[tuple[Event, str]]]:
    parts: list[bytes] = []
    failed: list[tuple[Event, str]] = []
    for event in events:
        try:
            if type(event) is EVENT_TYPES[event.kind]:  # a foreign event class goes as JSON (by name)
                parts.append(packer.pack(record_row(event)))
                continue
        except (*PACK_ERRORS, KeyError):
            pass
        try:
            parts.append(packer.pack(_json_row(event)))
        except (*PACK_ERRORS, KeyError) as exc:
            failed.append((event, f"{type(exc).__name__}: {exc}"))
    if not parts:
        return None, failed
    body = packer.pack_array_header(2) + packer.pack(header) + packer.pack_array_header(len(parts)) + b"".join(parts)
    return body, failed


def _json_row(event: Event) -> tuple[Any, ...]:
    record = event.to_record()
    payload = {k: v for k, v in record.items() if k not in _ENVELOPE_FIELDS}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return ("~" + event.kind, event.seq, event.ts, event.span_id, event.parent_id, text)


def decode_segment(data: bytes, run_id: str, kinds: frozenset[str] | None = None) -> list[Event]:
    """The events of one segment, in the order they were stored (only those of `kinds` when given:
    the others are skipped before they are rebuilt). Raises ValueError for a damaged one."""
    tag = data[:1]
    if tag not in (FORMAT_EVENT_TUPLES, FORMAT_ZLIB_MSGPACK):
        raise ValueError(f"unknown event segment format {tag!r}")
    try:
        body = zlib.decompress(data[1:]) if tag == FORMAT_ZLIB_MSGPACK else zstandard.ZstdDecompressor().decompress(data[1:])
        header, rows = unpack(body)
    except (zlib.error, zstandard.ZstdError, msgpack.UnpackException, TypeError) as exc:
        raise ValueError(f"damaged event segment: {exc}") from exc
    events: list[Event] = []
    try:
        readers = {kind: _reader(kind, tuple(names), tag == FORMAT_EVENT_TUPLES) for kind, names in header.items()}
        for row in rows:
            kind = row[0]
            if kinds is not None and (kind[1:] if kind[:1] == "~" else kind) not in kinds:
                continue
            if kind[:1] == "~":
                record: dict[str, Any] = json.loads(row[5])
                record.update(kind=kind[1:], run_id=run_id, seq=row[1], ts=row[2], span_id=row[3],
                              parent_id=row[4])
                events.append(event_from_record(record))
            else:
                events.append(readers[kind](run_id, row))
    except (IndexError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"damaged event segment: {type(exc).__name__}: {exc}") from exc
    return events


_READERS: dict[tuple[str, tuple[str, ...], bool], Callable[[str, list[Any]], Event]] = {}


def _reader(kind: str, names: tuple[str, ...], with_run_id: bool) -> Callable[[str, list[Any]], Event]:
    """The function that rebuilds an event of `kind` from a row whose values are `names` (after the
    envelope, with or without the run id): the row made back into the event (record_from_row) when the names are this
    version's fields, else through `event_from_record` (unknown names ignored, missing ones take their
    defaults)."""
    key = (kind, names, with_run_id)
    found = _READERS.get(key)
    if found is not None:
        return found
    start = len(ENVELOPE) + with_run_id
    if kind in EVENT_TYPES and list(names) == PAYLOAD_FIELDS[kind]:
        width = start + len(names)
        from_row: Callable[[Sequence[Any]], Event] = EVENT_TYPES[kind]._from_row  # type: ignore[attr-defined]

        def found(run_id: str, row: list[Any]) -> Event:  # record_from_row, without a call per event
            if len(row) != width:
                raise IndexError(f"a {kind} row of {len(row)} values, not {width}")
            return from_row(row if with_run_id else (kind, run_id, *row[1:]))
    else:
        def found(run_id: str, row: list[Any]) -> Event:
            record = dict(zip(names, row[start:], strict=True))
            envelope = row[1:start] if with_run_id else [run_id, *row[1:start]]
            record.update(zip(("run_id", *ENVELOPE[1:]), envelope, strict=True), kind=kind)
            return event_from_record(record)
    _READERS[key] = found
    return found
