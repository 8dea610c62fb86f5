"""Event segments: what is written now, what earlier versions wrote, and what is damaged or foreign."""

from __future__ import annotations

import zlib
from typing import ClassVar

import msgpack  # type: ignore[import-untyped]
import pytest
import zstandard

from engine import events as ev
from engine.event_record import record_row
from engine.store.segments import (
    FORMAT_EVENT_TUPLES,
    FORMAT_ZLIB_MSGPACK,
    PAYLOAD_FIELDS,
    decode_segment,
    encode_segment,
)
from tests.engine.store.store_samples import triad_run


def _segment(tag: bytes, header: dict[str, list[str]], rows: list[list[object]]) -> bytes:
    body = msgpack.packb([header, rows])
    return tag + (zlib.compress(body) if tag == FORMAT_ZLIB_MSGPACK else zstandard.ZstdCompressor().compress(body))


def test_a_segment_holds_the_event_rows_and_reads_back_equal() -> None:
    events = triad_run()
    data, failed = encode_segment(events)
    assert failed == [] and data is not None and data[:1] == FORMAT_EVENT_TUPLES
    header, rows = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data[1:]))
    assert rows[0] == list(record_row(events[0])) and rows[0][:3] == ["run_started", "run-0001", 1]
    assert set(header) == {e.kind for e in events}
    assert decode_segment(data, "run-0001") == events


def test_segments_of_the_first_format_still_read() -> None:
    """The first segments held rows without the run id: [kind, seq, ts, span_id, parent_id, *values]."""
    events = triad_run()
    header = {e.kind: PAYLOAD_FIELDS[e.kind] for e in events}
    rows = [[e.kind, *record_row(e)[2:]] for e in events]
    assert decode_segment(_segment(FORMAT_ZLIB_MSGPACK, header, rows), "run-0001") == events


@pytest.mark.parametrize("tag", [FORMAT_ZLIB_MSGPACK, FORMAT_EVENT_TUPLES])
def test_rows_written_with_other_fields_read_by_name(tag: bytes) -> None:
    """A kind whose fields changed between versions: unknown names are dropped, missing ones defaulted."""
    envelope = ["run-x", 4, 0.5, "s", None] if tag == FORMAT_EVENT_TUPLES else [4, 0.5, "s", None]
    row = ["node_state", *envelope, "done", "n1", "an old field"]
    (event,) = decode_segment(_segment(tag, {"node_state": ["state", "node_id", "gone"]}, [row]), "run-x")
    assert event == ev.NodeStateChanged(run_id="run-x", seq=4, ts=0.5, span_id="s", node_id="n1", state="done")


def test_a_row_of_the_wrong_width_is_damage_not_a_short_event() -> None:
    header = {"llm_delta": PAYLOAD_FIELDS["llm_delta"]}
    with pytest.raises(ValueError, match=r"damaged event segment.*llm_delta row of 6 values, not 7"):
        decode_segment(_segment(FORMAT_EVENT_TUPLES, header, [["llm_delta", "r", 1, 0.1, "s", None]]), "r")
    with pytest.raises(ValueError, match="unknown event segment format"):
        decode_segment(b"\x07" + zlib.compress(b""), "r")
    with pytest.raises(ValueError, match="damaged event segment"):
        decode_segment(FORMAT_EVENT_TUPLES + b"\x28\xb5\x2f\xfd not a frame", "r")


class _NodeStateWithExtra(ev.NodeStateChanged):
    kind: ClassVar[str] = "node_state"
    extra: str = "local"


def test_an_event_of_a_foreign_class_is_stored_as_its_registered_kind() -> None:
    """A subclass holds more values than its kind's rows: it goes by name (as JSON), the rest packed."""
    own = ev.LLMTokenDelta(run_id="r", seq=1, ts=0.1, text="a")
    foreign = _NodeStateWithExtra(run_id="r", seq=2, ts=0.2, node_id="n", state="done", extra="x")
    data, failed = encode_segment([own, foreign])
    assert failed == [] and data is not None
    assert decode_segment(data, "r") == [own, ev.NodeStateChanged(run_id="r", seq=2, ts=0.2, node_id="n",
                                                                  state="done")]


def test_lone_surrogates_are_kept_and_only_their_segment_takes_the_slower_packing() -> None:
    odd = ev.LLMTokenDelta(run_id="r", seq=1, ts=0.1, text="half a pair: \ud83d")
    plain = ev.LLMTokenDelta(run_id="r", seq=2, ts=0.2, text="plain")
    for events in ([odd, plain], [plain]):
        data, failed = encode_segment(events)
        assert failed == [] and data is not None and decode_segment(data, "r") == events
