"""What a strict re-run must reproduce byte for byte, and where two event streams first differ.

A strict replay's events equal its recording's byte for byte — each event packed as the trace store
packs it (MessagePack of the event's tuple: kind, then every field in order) — once these, and only
these, are set aside:

- `run_id` of every event (the replay is a run of its own);
- the lineage fields of `RunStarted`: `replay_of`, `fork_of`, `fork_at_seq` (what the run was made from).

Everything else is compared: seq, ts and every clock reading, span and parent ids, requests, streamed
text, responses, outputs, verdicts, usage, the order of the events.

One kind of run is not reproduced byte for byte: a run that a token or cost budget cut short while
calls were streaming. Which of the calls in flight at the crossing still finished and which were
cancelled depends on where each stood when the cancel landed; the replay ends with the same status and
reason, the same events per node, but those calls (and the usage they counted) may end otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import msgpack

from engine import events as ev
from engine.event_record import record_row

LINEAGE_FIELDS = ("replay_of", "fork_of", "fork_at_seq")
_RUN_ID = 1  # the position of `run_id` in an event's tuple (after its kind)


def comparable_bytes(event: ev.Event) -> bytes:
    """The event packed, its run id and (for `RunStarted`) its lineage set aside."""
    if type(event) is ev.RunStarted:
        event = dataclasses.replace(event, replay_of=None, fork_of=None, fork_at_seq=None)
    row = list(record_row(event))
    row[_RUN_ID] = ""
    try:
        packed: bytes = msgpack.packb(row, use_bin_type=True)
    except (TypeError, ValueError, OverflowError):  # what the store keeps as JSON text (huge ints, odd keys)
        packed = repr(row).encode("utf-8", "surrogatepass")
    return packed


def first_difference(recorded: Iterable[ev.Event], replayed: Iterable[ev.Event]) -> str | None:
    """None when the streams are equal under `comparable_bytes`; else where they first differ."""
    a: Sequence[ev.Event] = list(recorded)
    b: Sequence[ev.Event] = list(replayed)
    for index, (old, new) in enumerate(zip(a, b, strict=False)):
        if comparable_bytes(old) != comparable_bytes(new):
            return f"event {index + 1}: recorded {_describe(old)}, replayed {_describe(new)}"
    if len(a) != len(b):
        return f"{len(a)} events recorded, {len(b)} replayed"
    return None


def _describe(event: ev.Event) -> str:
    names = [f.name for f in event.__dataclass_fields__.values()]  # type: ignore[attr-defined]
    fields = ", ".join(f"{name}={getattr(event, name)!r}"[:80] for name in names if name != "run_id")
    return f"{event.kind}({fields})"
