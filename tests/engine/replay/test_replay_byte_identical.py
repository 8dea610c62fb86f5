"""A strict re-run's events equal its recording's byte for byte (`engine.replay.identity` says what
may differ: the run id and the lineage fields), for every bundled example, with parallel branches whose
calls complete in a shuffled order both when recorded and when replayed, and no request leaving the
process; a port fed by several edges merges in edge order, never in completion order."""

from __future__ import annotations

import asyncio
import random
import socket
from typing import Any

import pytest

from engine import events as ev
from engine.llm.sim import SimGateway
from engine.llm.types import DeltaCallback, LLMRequest, LLMResponse
from engine.replay import ReplayGateway, load_source, prepare_replay, start_replay
from engine.replay.identity import comparable_bytes, first_difference
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES, NAMES, NoProvider, record
from tests.engine.runtime.fakes import FakeGateway, build


class Shuffled(SimGateway):
    """The simulated provider with a random latency per call: parallel calls complete out of order."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        await asyncio.sleep(self.rng.random() * 0.02)
        return await super().complete(request, on_delta)


class ShuffledReplay(ReplayGateway):
    """A replay whose served calls become ready in a random order (another than the recorded one)."""

    rng = random.Random(7)

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        await asyncio.sleep(self.rng.random() * 0.01)
        return await super().complete(request, on_delta)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every attempt to open a connection is refused and noted: nothing may leave the process."""
    tried: list[Any] = []

    def refuse(*args: Any, **kw: Any) -> Any:
        tried.append(args)
        raise OSError("network use in a strict replay")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return tried


def _completion_order(events: list[ev.Event]) -> list[str]:
    return [e.span_id or "" for e in events if isinstance(e, ev.LLMCallFinished)]


@pytest.mark.asyncio
@pytest.mark.parametrize("name", NAMES)
async def test_a_strict_replay_of_each_example_is_byte_identical(store: TraceStore, name: str,
                                                                  no_network: list[Any]) -> None:
    source = await record(store, name, gateway=Shuffled(seed=len(name)))
    setup = prepare_replay(load_source(store, source.run_id), live=NoProvider(), base_dir=EXAMPLES,
                           gateway=None)
    setup.gateway = ShuffledReplay(setup.source.recording, live=NoProvider())
    NoProvider.calls = 0
    run = start_replay(setup, store)
    result = await run.wait()
    before, after = list(store.iter_events(source.run_id)), list(store.iter_events(result.run_id))
    assert first_difference(before, after) is None
    assert [comparable_bytes(e) for e in after] == [comparable_bytes(e) for e in before]
    assert NoProvider.calls == 0 and no_network == []
    assert setup.gateway.served == sum(isinstance(e, ev.LLMCallStarted) for e in before)
    assert setup.gateway.sequencer is not None and setup.gateway.sequencer.stalls == 0
    started = after[0]
    assert isinstance(started, ev.RunStarted) and started.replay_of == source.run_id
    assert {e.run_id for e in after} == {result.run_id} != {source.run_id}


@pytest.mark.asyncio
async def test_the_recorded_parallel_calls_completed_out_of_start_order(store: TraceStore) -> None:
    """The shuffle above is real: in the triad, executor tasks finish in another order than they start."""
    source = await record(store, "triad", gateway=Shuffled(seed=5))
    events = list(store.iter_events(source.run_id))
    starts = [e.span_id for e in events if isinstance(e, ev.LLMCallStarted) and e.node_id == "executor"]
    assert _completion_order([e for e in events if getattr(e, "node_id", "") == "executor"]) != starts


def test_what_may_differ_is_exactly_the_run_id_and_the_lineage() -> None:
    a = ev.RunStarted(run_id="a", seq=1, ts=0.5, span_id="run", workflow_id="w", workflow_name="W",
                      workflow_hash="h")
    b = ev.RunStarted(run_id="b", seq=1, ts=0.5, span_id="run", workflow_id="w", workflow_name="W",
                      workflow_hash="h", replay_of="a", fork_of="x", fork_at_seq=3)
    assert comparable_bytes(a) == comparable_bytes(b)
    for change in ({"seq": 2}, {"ts": 0.50001}, {"span_id": "run#2"}, {"workflow_hash": "g"}):
        assert comparable_bytes(a) != comparable_bytes(a.__class__(**{**_fields(a), **change}))
    delta = ev.LLMTokenDelta(run_id="a", seq=9, ts=1.0, span_id="x#1>llm1", parent_id="x#1", text="hi")
    assert first_difference([delta], [ev.LLMTokenDelta(**{**_fields(delta), "text": "ho"})]) is not None
    assert first_difference([delta], [ev.LLMTokenDelta(**{**_fields(delta), "run_id": "z"})]) is None


def _fields(event: ev.Event) -> dict[str, Any]:
    return {name: getattr(event, name) for name in event.__dataclass_fields__}  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_fan_in_merges_in_edge_order_whatever_finishes_first() -> None:
    slow_first = {"a": 0.05, "b": 0.0}

    def reply(request: LLMRequest) -> str:
        return f"from {request.metadata['node_id']}"

    class Timed(FakeGateway):
        async def complete(self, request: LLMRequest, on_delta: Any = None) -> LLMResponse:
            await asyncio.sleep(slow_first.get(str(request.metadata.get("node_id")), 0.0))
            return await super().complete(request, on_delta)

    wf = build([("goal", "input", {"name": "goal", "default": "x"}), ("a", "executor", {}), ("b", "executor", {}),
                ("c", "executor", {}), ("out", "output", {"name": "out"})],
               ["goal.value->a.task", "goal.value->b.task", "goal.value->c.task", "a.result->c.context",
                "b.result->c.context", "c.result->out.value"])
    run = Run(compile_workflow(wf), gateway=Timed(reply))
    await run.wait()
    finished = [e.node_id for e in run.hub.history if isinstance(e, ev.LLMCallFinished)]
    assert finished[:2] == ["b", "a"]  # b answered first …
    [asked] = [e for e in run.hub.history if isinstance(e, ev.LLMCallStarted) and e.node_id == "c"]
    text = str(asked.request["messages"])
    assert text.index("from a") < text.index("from b")  # … yet c's context is in edge order: a, then b
