"""The hub's methods for the kinds every node emits make exactly the events `emit` makes."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from engine.events import Event, LLMCallFinished, LLMCallStarted, LLMTokenDelta, NodeOutput, NodeStateChanged
from engine.runtime.hub import EventHub

REQUEST = {"model": "sim/a", "messages": [{"role": "user", "content": "hi"}], "metadata": {"seed": 3}}
RESPONSE = {"content": "ok", "tokens_in": 3, "tokens_out": 1}
CASES: list[tuple[str, tuple[Any, ...], dict[str, Any], type[Event], dict[str, Any]]] = [
    ("node_state", ("n1", "running"), {"span_id": "s1", "parent_id": "p", "round": 2},
     NodeStateChanged, {"span_id": "s1", "parent_id": "p", "node_id": "n1", "state": "running", "round": 2}),
    ("node_state", ("sub/n2", "skipped"), {"detail": "no value for required input task"},
     NodeStateChanged, {"node_id": "sub/n2", "state": "skipped", "detail": "no value for required input task"}),
    ("node_output", ("n1", "result", {"rows": [1, 2]}), {"span_id": "s1", "parent_id": "p", "round": 1},
     NodeOutput, {"span_id": "s1", "parent_id": "p", "node_id": "n1", "port": "result", "value": {"rows": [1, 2]},
                  "round": 1}),
    ("llm_started", ("n1", "sim/a", REQUEST), {"span_id": "l1", "parent_id": "s1"},
     LLMCallStarted, {"span_id": "l1", "parent_id": "s1", "node_id": "n1", "model": "sim/a", "request": REQUEST}),
    ("llm_delta", ("tok",), {"span_id": "l1", "parent_id": "s1"},
     LLMTokenDelta, {"span_id": "l1", "parent_id": "s1", "text": "tok"}),
    ("llm_finished", ("n1", "sim/a"), {"span_id": "l1", "parent_id": "s1", "content": "ok", "tokens_in": 3,
                                       "tokens_out": 1, "cost_usd": 0.25, "latency_s": 0.5, "response": RESPONSE},
     LLMCallFinished, {"span_id": "l1", "parent_id": "s1", "node_id": "n1", "model": "sim/a", "content": "ok",
                       "tokens_in": 3, "tokens_out": 1, "cost_usd": 0.25, "latency_s": 0.5, "response": RESPONSE}),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "cls", "fields"), CASES)
def test_a_kind_method_makes_the_event_emit_makes(method: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                                                  cls: type[Event], fields: dict[str, Any]) -> None:
    typed, generic = EventHub("run-1"), EventHub("run-1")
    typed.emit(NodeStateChanged, node_id="first", state="running")  # the second event of each hub: seq 2
    generic.emit(NodeStateChanged, node_id="first", state="running")
    got = getattr(typed, method)(*args, **kwargs)
    expected = generic.emit(cls, **fields)
    assert type(got) is cls
    assert dataclasses.replace(got, ts=0.0) == dataclasses.replace(expected, ts=0.0)
    assert got.seq == 2 and got.run_id == "run-1" and got.ts >= typed.history[0].ts
    assert typed.history[-1] is got
    assert typed.node_states == generic.node_states


@pytest.mark.asyncio
async def test_kind_methods_reach_sinks_and_subscribers_in_order() -> None:
    hub = EventHub("run-2")
    batches: list[list[Event]] = []
    hub.add_batch_sink(batches.append)
    seen: list[Event] = []

    async def follow() -> None:
        async for event in hub.subscribe():
            seen.append(event)

    follower = asyncio.ensure_future(follow())
    await asyncio.sleep(0)
    hub.node_state("n1", "running", span_id="s1", parent_id="p")
    hub.llm_started("n1", "sim/a", REQUEST, span_id="l1", parent_id="s1")
    hub.llm_delta("o", span_id="l1", parent_id="s1")
    hub.llm_finished("n1", "sim/a", span_id="l1", parent_id="s1", content="o", tokens_in=1, tokens_out=1,
                     cost_usd=0.0, latency_s=0.0, response={})
    hub.node_output("n1", "result", "o", span_id="s1", parent_id="p")
    hub.node_state("n1", "done", span_id="s1", parent_id="p")
    hub.close()
    await follower
    assert [e.seq for e in seen] == [1, 2, 3, 4, 5, 6]
    assert [e for batch in batches for e in batch] == seen
    assert hub.node_states == {"n1": "done"}
