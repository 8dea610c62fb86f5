"""The replay gateway alone: identical requests served in the order they were made, a missing call a
divergence, the recorded stream replayed through the callback, and keys from structure, not content."""

from __future__ import annotations

from typing import Any

import pytest

from engine import events as ev
from engine.llm.types import LLMRequest
from engine.replay import Recording, ReplayDivergenceError, ReplayGateway
from engine.replay.keys import request_hash, structure_of, what_differs


def _request(**meta: Any) -> LLMRequest:
    return LLMRequest(model="sim/default", messages=[{"role": "user", "content": "roll a die"}],
                      metadata={"node_id": "vote", "round": 0, **meta})


def _recording(*answers: str) -> Recording:
    events: list[ev.Event] = []
    seq = 0
    for n, answer in enumerate(answers):
        span = f"r:llm{n}"
        request = _request().to_record()
        events.append(ev.LLMCallStarted(run_id="r", seq=seq, ts=0.0, span_id=span, node_id="vote",
                                        model="sim/default", request=request))
        events.append(ev.LLMTokenDelta(run_id="r", seq=seq + 1, ts=0.0, span_id=span, text=answer))
        events.append(ev.LLMCallFinished(run_id="r", seq=seq + 2, ts=0.0, span_id=span, node_id="vote",
                                         model="sim/default", content=answer,
                                         response={"content": answer, "model": "sim/default", "provider": "sim"}))
        seq += 3
    return Recording.from_events("r", events)


@pytest.mark.asyncio
async def test_identical_requests_are_served_in_the_order_they_were_made() -> None:
    gateway = ReplayGateway(_recording("3", "5", "3"))
    streamed: list[str] = []
    replies = [(await gateway.complete(_request(), streamed.append)).content for _ in range(3)]
    assert replies == ["3", "5", "3"] and streamed == ["3", "5", "3"]
    with pytest.raises(ReplayDivergenceError, match="no such call"):
        await gateway.complete(_request())  # a fourth call: the recording holds three


@pytest.mark.asyncio
async def test_a_changed_request_is_never_served() -> None:
    gateway = ReplayGateway(_recording("3"))
    changed = LLMRequest(model="sim/other", messages=[{"role": "user", "content": "roll a die"}],
                         metadata={"node_id": "vote", "round": 0})
    with pytest.raises(ReplayDivergenceError, match="model sim/default → sim/other"):
        await gateway.complete(changed)
    with pytest.raises(ReplayDivergenceError, match="replay stopped"):  # and nothing after it either
        await gateway.complete(_request())


def test_keys_come_from_structure_and_the_hash_ignores_volatile_fields() -> None:
    assert structure_of("sub/exec", {"round": 1, "task_id": "t2", "sample": 0, "text": "x"}) == \
        "sub/exec|round=1|task_id='t2'|sample=0"
    a = _request().to_record()
    b = {**a, "metadata": {**a["metadata"], "attempt": 3}}
    assert request_hash(a) == request_hash(b)
    c = {**a, "temperature": 0.7}
    assert request_hash(a) != request_hash(c) and what_differs(a, c) == "temperature 0.0 → 0.7"
