"""Every event round-trips through its record, and records are plain JSON."""

from __future__ import annotations

import json

import pytest

from engine.event_record import record_from_row, record_row
from engine.events import (
    EVENT_TYPES,
    LLMCallFinished,
    NodeStateChanged,
    RunFinished,
    VerdictIssued,
    event_from_record,
)


def test_events_round_trip_through_json_records() -> None:
    events = [
        NodeStateChanged(run_id="r", seq=1, ts=0.1, span_id="s1", parent_id="s0",
                         node_id="n", state="running"),
        LLMCallFinished(run_id="r", seq=2, ts=0.2, node_id="n", model="sim/default",
                        content="hi", tokens_in=3, tokens_out=1, response={"content": "hi"}),
        VerdictIssued(run_id="r", seq=3, ts=0.3, node_id="c", subject_node_id="n",
                      decision="revise", score=0.4, reasons=["too short"], round=1),
        RunFinished(run_id="r", seq=4, ts=0.4, status="succeeded", outputs={"result": "x"}),
    ]
    for event in events:
        record = json.loads(json.dumps(event.to_record()))
        assert event_from_record(record) == event


def test_event_kinds_are_unique_and_unknown_kinds_are_refused() -> None:
    assert len(EVENT_TYPES) == len({cls.kind for cls in EVENT_TYPES.values()})
    with pytest.raises(ValueError, match="unknown event kind"):
        event_from_record({"kind": "bogus"})


def test_events_are_frozen() -> None:
    event = NodeStateChanged(run_id="r", seq=1, ts=0.0, node_id="n", state="done")
    with pytest.raises(AttributeError):
        event.state = "failed"  # type: ignore[misc]


def test_constructors_keep_the_dataclass_contract() -> None:
    from dataclasses import MISSING, fields

    for cls in EVENT_TYPES.values():
        required = {f.name: f"v-{f.name}" for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
        first, second = cls(**required), cls(**required)
        assert first == second and type(first).__new__.__qualname__ == f"{cls.__name__}.__new__"
        for f in fields(cls):
            value = getattr(first, f.name)
            if f.name in required:
                assert value == required[f.name]
            elif f.default is not MISSING:
                assert value == f.default
            else:  # a fresh default per event, never a shared one
                assert value == f.default_factory() and value is not getattr(second, f.name)  # type: ignore[misc]
        with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
            cls(**required, bogus=1)
        with pytest.raises(TypeError, match="missing"):
            cls(**{k: v for k, v in required.items() if k != "run_id"})
        with pytest.raises(TypeError):
            cls(*required.values())  # keyword-only, as before


def test_frozen_events_hash_compare_and_refuse_every_field() -> None:
    from dataclasses import FrozenInstanceError, replace

    state = NodeStateChanged(run_id="r", seq=1, ts=0.1, node_id="n", state="done")
    assert hash(state) == hash(NodeStateChanged(run_id="r", seq=1, ts=0.1, node_id="n", state="done"))
    event = LLMCallFinished(run_id="r", seq=2, ts=0.2, node_id="n", model="m", tokens_in=3)
    assert replace(event, seq=3).seq == 3 and replace(event, seq=3) != event
    for name in ("run_id", "seq", "model", "response"):
        with pytest.raises(FrozenInstanceError):
            setattr(event, name, None)


def test_an_event_is_its_row_and_behaves_like_a_frozen_dataclass() -> None:
    import copy
    import pickle
    from dataclasses import FrozenInstanceError, asdict, fields

    event = VerdictIssued(run_id="r", seq=3, ts=0.3, node_id="c", subject_node_id="n", decision="revise",
                          reasons=["short"])
    names = [f.name for f in fields(event)]
    assert record_row(event) == ("verdict", *(getattr(event, name) for name in names))
    assert names[:5] == ["run_id", "seq", "ts", "span_id", "parent_id"]  # the base class's fields first
    assert repr(event).startswith("VerdictIssued(run_id='r', seq=3, ts=0.3, span_id=None, parent_id=None, node_id='c'")
    assert asdict(event)["reasons"] == ["short"] and asdict(event)["reasons"] is not event.reasons
    for again in (pickle.loads(pickle.dumps(event)), copy.copy(event), copy.deepcopy(event)):
        assert again == event and type(again) is VerdictIssued
    assert copy.deepcopy(event).reasons is not event.reasons
    with pytest.raises(FrozenInstanceError):
        del event.seq  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        event.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        assert event < event  # type: ignore[operator]  # events do not order
    other_kind = NodeStateChanged(run_id="r", seq=3, ts=0.3, node_id="c", state="done")
    assert other_kind != event and len(record_row(other_kind)) == len(fields(other_kind)) + 1


def _state() -> NodeStateChanged:
    return NodeStateChanged(run_id="r", seq=1, ts=0.1, node_id="n", state="running")


def test_json_refuses_an_event_as_it_refuses_a_dataclass() -> None:
    with pytest.raises(TypeError, match="not JSON serializable"):
        json.dumps(_state())  # a tuple event was written as a positional array
    assert json.loads(json.dumps(_state().to_record()))["state"] == "running"  # the record is the JSON form


def test_an_event_holds_no_values_for_in() -> None:
    with pytest.raises(TypeError):
        assert "running" in _state()  # type: ignore[operator]  # was True: a tuple holds its values


def test_an_event_is_not_a_sequence() -> None:
    event = _state()
    assert not isinstance(event, tuple)
    for trap in (len, list, iter, lambda e: e[0], lambda e: e + (),  # noqa: RUF005
                 lambda e: e * 2, lambda e: e.count("n")):
        with pytest.raises((TypeError, AttributeError)):
            trap(event)
    with pytest.raises(TypeError):
        _kind, _run, *_rest = event  # type: ignore[misc]


def test_an_event_never_equals_its_row_and_comes_back_from_it() -> None:
    event = _state()
    row = record_row(event)
    assert row[:3] == ("node_state", "r", 1) and event != row and row != event
    again = record_from_row(NodeStateChanged, row)
    assert again == event and hash(again) == hash(event) and again is not event


def test_an_event_read_back_from_a_stored_list_row_is_the_same_event() -> None:
    event = _state()
    stored = list(record_row(event))  # MessagePack gives the store's rows back as lists
    again = record_from_row(NodeStateChanged, stored)
    stored[7] = "done"  # the list the reader was handed is not the event's row
    assert again == event and hash(again) == hash(event) and again.state == "running"
    assert type(record_row(again)) is tuple and record_row(again) == record_row(event)
