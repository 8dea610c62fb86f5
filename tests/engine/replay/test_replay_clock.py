"""The replay's clock and turns: recorded readings by place, an unknown event never moves time back,
waiters woken at their seq in order, and a turn that never comes given up after STALL_S (counted)."""

from __future__ import annotations

import asyncio

import pytest

from engine import events as ev
from engine.replay import clock
from engine.replay.clock import RecordedClock, Sequencer
from engine.runtime.hub import EventHub


def _finished(ts: float, latency: float, span: str = "x#1>llm1") -> ev.LLMCallFinished:
    return ev.LLMCallFinished(run_id="a", seq=5, ts=ts, span_id=span, parent_id="x#1", node_id="x", model="m",
                              latency_s=latency)


def test_readings_come_from_the_event_at_the_same_place() -> None:
    recorded = RecordedClock()
    recorded.note(_finished(2.5, 0.75))
    restamped = recorded.restamp(_finished(0.01, 0.001))
    assert (restamped.ts, restamped.latency_s) == (2.5, 0.75)  # type: ignore[attr-defined]
    unknown = recorded.restamp(_finished(0.02, 0.001, span="y#1>llm1"))
    assert unknown.ts == 2.5  # a place the recording lacks keeps its own reading, never earlier than the last


@pytest.mark.asyncio
async def test_waiters_take_their_turns_in_seq_order_whatever_order_they_wait_in() -> None:
    hub = EventHub("r")
    sequencer = Sequencer(hub)
    order: list[int] = []

    async def at(seq: int) -> None:
        await sequencer.turn(seq)
        order.append(seq)
        hub.emit(ev.LogMessage, node_id="n", level="info", message=str(seq))

    hub.emit(ev.LogMessage, node_id="n", level="info", message="first")  # seq 1
    await asyncio.gather(at(4), at(2), at(3))
    assert order == [2, 3, 4] and sequencer.stalls == 0
    assert [e.seq for e in hub.history] == [1, 2, 3, 4]


@pytest.mark.asyncio
async def test_a_turn_that_never_comes_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clock, "STALL_S", 0.01)
    hub = EventHub("r")
    sequencer = Sequencer(hub)
    await asyncio.wait_for(sequencer.turn(50), 5)
    assert sequencer.stalls == 1
