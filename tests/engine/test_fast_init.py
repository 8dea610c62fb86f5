"""The fast constructors of events, model requests/responses and node settings behave like the dataclass ones."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from engine import events as ev
from engine.event_record import TupleRecord, record_row
from engine.fast_init import install_fast_init
from engine.llm.types import LLMRequest, LLMResponse


def test_positional_keyword_defaults_and_factories_as_declared() -> None:
    reply = LLMResponse("ok", "sim/default", "sim", 3, 1)
    assert (reply.content, reply.tokens_in, reply.tokens_out, reply.cost_usd, reply.priced) == ("ok", 3, 1, 0.0, True)
    assert reply == LLMResponse(content="ok", model="sim/default", provider="sim", tokens_in=3, tokens_out=1)
    a, b = LLMRequest("m", []), LLMRequest("m", [])
    assert a.metadata == {} and a.metadata is not b.metadata  # a fresh default per instance
    assert a.retries == 2 and a.stream is True
    with pytest.raises(TypeError):
        LLMRequest("m")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ev.NodeStateChanged("r", 1, 0.0, node_id="n", state="done")  # type: ignore[misc]  # keyword-only


def test_objects_stay_frozen_and_round_trip() -> None:
    event = ev.VerdictIssued(run_id="r", seq=3, ts=0.5, node_id="c", subject_node_id="x", decision="approve")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seq = 4  # type: ignore[misc]
    assert ev.event_from_record(event.to_record()) == event
    assert event.reasons == [] and event.reasons is not ev.VerdictIssued(
        run_id="r", seq=4, ts=0.6, node_id="c", subject_node_id="x", decision="approve").reasons


def test_classes_it_cannot_speed_up_are_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, PostInit):
        with pytest.raises(TypeError):
            install_fast_init(cls)


class _Reply(TupleRecord, kw_only=False):  # the same field values as an LLMResponse could hold
    content: str
    model: str
    provider: str


class _Echo(_Reply):  # same fields, another class
    pass


def test_requests_and_responses_are_records_of_their_own_class() -> None:
    reply = LLMResponse("ok", "m", "p")
    assert record_row(reply) == ("ok", "m", "p", 0, 0, 0.0, 0.0, None, [], True)
    assert reply != record_row(reply) and record_row(reply) != reply
    assert _Reply("ok", "m", "p") != _Echo("ok", "m", "p")
    assert record_row(_Reply("ok", "m", "p")) == record_row(_Echo("ok", "m", "p"))
    assert _Reply("ok", "m", "p") == _Reply(content="ok", model="m", provider="p")
    assert hash(_Reply("ok", "m", "p")) == hash(_Reply("ok", "m", "p"))
    request = LLMRequest("m", [{"role": "user", "content": "hi"}], metadata={"seed": 1})
    changed = dataclasses.replace(request, stream=False)
    assert (changed.stream, request.stream, changed.messages) == (False, True, request.messages)
    for same in (pickle.loads(pickle.dumps(request)), copy.copy(request), copy.deepcopy(request)):
        assert same == request and type(same) is LLMRequest
    assert dataclasses.asdict(reply)["tool_calls"] == [] and [f.name for f in dataclasses.fields(reply)][:2] == [
        "content", "model"]
    assert repr(reply).startswith("LLMResponse(content='ok', model='m', provider='p', tokens_in=0")
    record: Any = reply
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.content = "changed"
    with pytest.raises(TypeError):
        assert reply < reply  # type: ignore[operator]
