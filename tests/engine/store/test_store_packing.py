"""The store packs with ormsgpack: the bytes msgpack wrote before, or msgpack itself where ormsgpack refuses."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from collections import namedtuple
from typing import Any

import msgpack  # type: ignore[import-untyped]
import ormsgpack
import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

from engine import events as ev
from engine.event_record import record_row
from engine.store.documents import FORMAT_PACKED, decode_document, encode_document
from engine.store.packing import PACK_ERRORS, STRICT_OPTIONS, pack
from engine.store.segments import FORMAT_EVENT_TUPLES, PAYLOAD_FIELDS, decode_segment, encode_segment
from tests.engine.store.store_samples import triad_run


class _Level(enum.IntEnum):
    HIGH = 3


class _Colour(enum.Enum):
    RED = 1


@dataclasses.dataclass
class _Point:
    x: int = 0


class _Label(str):
    pass


_Pair = namedtuple("_Pair", "left right")


def _body(segment: bytes) -> bytes:
    return zstandard.ZstdDecompressor().decompress(segment[1:])


def test_a_segment_packed_by_msgpack_reads_back_and_is_byte_for_byte_what_is_written_now() -> None:
    """Runs stored before ormsgpack: `msgpack.Packer().pack([header, rows])` was the whole body."""
    events = triad_run()
    header = {kind: PAYLOAD_FIELDS[kind] for kind in {e.kind for e in events}}
    old_body = msgpack.Packer().pack([header, [record_row(e) for e in events]])
    old_segment = FORMAT_EVENT_TUPLES + zstandard.ZstdCompressor(level=1).compress(old_body)
    assert decode_segment(old_segment, "run-0001") == events
    new_segment, failed = encode_segment(events)
    assert failed == [] and new_segment is not None
    new_header, _ = msgpack.unpackb(_body(new_segment))  # the same kinds, perhaps in another order
    assert new_header == header
    assert _body(new_segment) == msgpack.Packer().pack([new_header, [record_row(e) for e in events]])


def test_a_workflow_document_packed_by_msgpack_reads_back_and_is_what_is_written_now() -> None:
    doc = {"format": "triadic.workflow", "version": 3, "id": "wf", "settings": {"seed": 3, "budget": {}},
           "nodes": [{"id": f"x{i}", "params": {"ratio": 0.5, "retries": 0}, "ui": {"x": float(i), "color": None}}
                     for i in range(50)]}
    old_body = msgpack.packb(doc)
    assert decode_document(FORMAT_PACKED + zstandard.ZstdCompressor(level=1).compress(old_body)) == doc
    assert _body(encode_document(doc)) == old_body


def test_values_ormsgpack_refuses_are_stored_as_before() -> None:
    """A segment holding what ormsgpack refuses (an IntEnum, a named tuple) is packed by msgpack (an int, a
    list) and an int beyond 64 bits goes as JSON, as before; the other events of the segment are stored alongside."""
    values: list[Any] = [_Level.HIGH, _Label("tag"), _Pair(1, "b"), 2**70, -(2**70), {7: "int key"}]
    events = [ev.NodeOutput(run_id="r", seq=i + 1, ts=0.1 * i, node_id="n", port="out", value=v)
              for i, v in enumerate(values)]
    data, failed = encode_segment(events)
    assert failed == [] and data is not None
    back = [e.value for e in decode_segment(data, "r")]  # type: ignore[attr-defined]
    assert back == [3, "tag", [1, "b"], 2**70, -(2**70), {7: "int key"}]
    assert [type(v) for v in back[:2]] == [int, str]


_ODD = [_Level.HIGH, _Colour.RED, _Label("tag"), _Pair(1, 2), _Point(), uuid.UUID(int=5), datetime.datetime(2026, 11, 26),
        "\ud83d", "half \udfff pair", 2**64, -(2**63) - 1, {(1, 2): "tuple key"}, {None: 0, 1.5: 1}]
_SCALARS = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.binary() | st.text()
            | st.sampled_from(_ODD))
_KEYS = st.text() | st.integers(-(2**64), 2**64) | st.none() | st.booleans()
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                       | st.dictionaries(_KEYS, inner, max_size=4) | st.builds(_Pair, inner, inner), max_leaves=12)


def _same_bytes_or_refused(value: Any) -> None:
    try:
        expected = msgpack.Packer().pack(value)
    except PACK_ERRORS:
        expected = None  # msgpack refuses: ormsgpack must refuse too
    try:
        packed = ormsgpack.packb(value, option=STRICT_OPTIONS)
    except TypeError:
        pass  # refused: msgpack packs it, as before
    else:
        assert packed == expected
    if expected is None:
        with pytest.raises(PACK_ERRORS):
            pack(value)
    else:
        assert pack(value) == expected


@pytest.mark.parametrize("value", _ODD, ids=repr)
def test_ormsgpack_writes_msgpacks_bytes_or_refuses_each_odd_value(value: Any) -> None:
    _same_bytes_or_refused(value)


@given(_VALUES)
def test_ormsgpack_under_the_strict_options_writes_msgpacks_bytes_or_refuses(value: Any) -> None:
    _same_bytes_or_refused(value)
