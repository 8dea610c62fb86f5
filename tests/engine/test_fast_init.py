"""The fast constructors of events and model requests/responses behave like the dataclass ones."""

from __future__ import annotations

import dataclasses

import pytest

from engine import events as ev
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
