from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import pytest

from engine.events import (
    LLMCallFinished,
    LLMCallStarted,
    NodeStateChanged,
    PlanEmitted,
    RunFinished,
    RunStarted,
)
from engine.runtime import Run, compile_workflow, execute
from tests.engine.runtime.fakes import FakeGateway, build, triad


@pytest.mark.asyncio
async def test_triad_runs_and_every_subscriber_sees_the_whole_stream() -> None:
    gateway = FakeGateway()
    run = Run(compile_workflow(triad()), gateway=gateway, inputs={"goal": "brew tea"})
    early = run.events()
    result = await run.wait()
    late = [e async for e in run.events()]
    seen = [e async for e in early]
    assert result.status == "succeeded", result.reason
    assert seen == late and isinstance(late[0], RunStarted) and isinstance(late[-1], RunFinished)
    assert [e.seq for e in late] == list(range(1, len(late) + 1))
    assert all(b.ts >= a.ts for a, b in itertools.pairwise(late))
    assert "t3" in result.outputs["result"] and result.outputs["result"].count("## t") == 3
    assert len(gateway.by_role("executor")) == 3 and gateway.by_role("planner")[0].metadata["task"] == "brew tea"
    assert any(isinstance(e, PlanEmitted) and len(e.tasks) == 3 for e in late)
    assert result.tokens_in == 10 * len(gateway.requests) and len(result.verdicts) == 1


@pytest.mark.asyncio
async def test_spans_link_run_node_and_llm_calls_and_record_request_response() -> None:
    run = Run(compile_workflow(triad()), gateway=FakeGateway())
    await run.wait()
    history = run.hub.history
    run_span = history[0].span_id
    node_spans = {e.span_id for e in history if isinstance(e, NodeStateChanged) and e.state == "running"}
    assert all(e.parent_id == run_span for e in history if isinstance(e, NodeStateChanged))
    started = [e for e in history if isinstance(e, LLMCallStarted)]
    finished = {e.span_id: e for e in history if isinstance(e, LLMCallFinished)}
    assert started and {e.span_id for e in started} == set(finished)
    for call in started:
        assert call.parent_id in node_spans
        assert call.request["metadata"]["node_id"] == call.node_id and "messages" in call.request
        assert finished[call.span_id].response["content"] == finished[call.span_id].content
    deltas = [e for e in history if e.kind == "llm_delta"]
    assert deltas and all(d.span_id in finished for d in deltas)


@pytest.mark.asyncio
async def test_independent_plan_tasks_run_in_parallel() -> None:
    gateway = FakeGateway(latency_s=0.2)
    started = time.monotonic()
    result = await execute(triad(), gateway=gateway)
    elapsed = time.monotonic() - started
    assert result.status == "succeeded"
    # planner, t1 ‖ t2, t3, critic = 4 sequential latencies, not 5
    assert gateway.peak == 2 and elapsed < 0.2 * 4.8


@pytest.mark.asyncio
async def test_concurrency_setting_caps_model_calls() -> None:
    wf = build([("in", "input", {}), ("m", "map", {"concurrency": 10}), ("r", "reduce", {"mode": "concat"}),
                ("out", "output", {})], ["in.value->m.items", "m.results->r.items", "r.result->out.value"],
               concurrency=2)
    gateway = FakeGateway(latency_s=0.05)
    result = await execute(wf, gateway=gateway, inputs={"goal": [f"item {i}" for i in range(6)]})
    assert result.status == "succeeded", result.reason
    assert gateway.peak == 2 and result.outputs["result"].count("done: item") == 6


@pytest.mark.asyncio
async def test_store_gets_workflow_version_and_every_event() -> None:
    class FakeStore:
        def __init__(self) -> None:
            self.saved: list[tuple[dict, str]] = []
            self.events: list[object] = []
            self.closed = False

        def save_workflow(self, doc: dict, *, workflow_hash: str) -> str:
            self.saved.append((doc, workflow_hash))
            return workflow_hash

        def writer(self) -> FakeStore:
            return self

        errors: tuple[str, ...] = ()

        def append_many(self, events: list[object]) -> None:
            self.events.extend(events)

        def call_in_order(self, job: object, what: str) -> None:
            job()  # type: ignore[operator]

        def memory_value(self, *_args: object) -> None:
            return None

        def memory_history(self, *_args: object) -> list[object]:
            return []

        def flush(self, timeout: float | None = None) -> bool:
            return True

        def close(self, timeout: float | None = None, *, waited_s: float = 0.0) -> None:
            self.closed = True

    store = FakeStore()
    plan = compile_workflow(triad())
    run = Run(plan, gateway=FakeGateway(), store=store)
    await run.wait()
    assert store.saved[0][1] == plan.workflow_hash and store.saved[0][0]["format"] == "triadic.workflow"
    assert store.events == run.hub.history and store.closed


@pytest.mark.asyncio
async def test_slow_subscriber_never_blocks_the_run() -> None:
    run = Run(compile_workflow(triad()), gateway=FakeGateway())
    stream = run.events()
    run.start()
    first = await anext(stream)
    await asyncio.wait_for(run.wait(), 5)  # finishes while the subscriber holds 1 event
    rest = [e async for e in stream]
    assert first.kind == "run_started" and len(rest) == len(run.hub.history) - 1


@pytest.mark.asyncio
async def test_sinks_get_every_event_in_order_in_batches_and_errors_never_stop_the_run() -> None:
    from engine.runtime.hub import EventHub

    hub = EventHub("r1")
    got: list[int] = []
    hub.add_sink(lambda e: got.append(e.seq))
    hub.add_sink(lambda e: 1 / 0)  # a broken sink
    for _ in range(5):
        hub.emit(RunStarted, workflow_id="w", workflow_name="w", workflow_hash="h")
    assert got == []  # handed over later, in one batch
    await asyncio.sleep(0.1)
    assert got == [1, 2, 3, 4, 5] and len(hub.sink_errors) == 5
    hub.emit(RunFinished, status="succeeded")
    hub.close()
    assert got == [1, 2, 3, 4, 5, 6]


@pytest.mark.asyncio
async def test_token_deltas_from_a_provider_thread_land_in_order_on_the_loop() -> None:
    from engine.llm.types import LLMRequest, LLMResponse

    class ThreadedModel:
        async def complete(self, request: LLMRequest, on_delta=None) -> LLMResponse:  # type: ignore[no-untyped-def]
            def work() -> str:
                for word in ("a", "b", "c"):
                    on_delta(word)
                return "abc"

            text = await asyncio.get_running_loop().run_in_executor(None, work)
            return LLMResponse(text, request.model, "threaded", 1, 3)

    wf = build([("in", "input", {}), ("x", "executor", {}), ("o", "output", {})], ["in.value->x.task", "x.result->o.value"])
    run = Run(compile_workflow(wf), gateway=ThreadedModel())
    await run.wait()
    kinds = [e.kind for e in run.hub.history if e.kind.startswith("llm")]
    assert kinds == ["llm_started", "llm_delta", "llm_delta", "llm_delta", "llm_finished"]


@pytest.mark.asyncio
async def test_what_could_not_be_recorded_is_in_the_result_and_the_rest_is_stored(tmp_path: Path) -> None:
    from engine.store import TraceStore

    def broken_save(doc: dict, *, workflow_hash: str) -> str:
        raise OSError("disk full")

    with TraceStore(tmp_path / "t.db") as store:
        store.save_workflow = broken_save  # type: ignore[method-assign]
        run = Run(compile_workflow(triad()), gateway=FakeGateway(), store=store)
        run.hub.add_sink(lambda event: 1 / 0 if event.seq == 2 else None)
        result = await run.wait()
        assert result.status == "succeeded"  # recording problems never fail the run itself
        assert result.recording_errors[0].startswith("workflow version ") and "OSError: disk full" in result.recording_errors[0]
        assert result.recording_errors[1] == "a run event consumer failed: ZeroDivisionError: division by zero"
        assert len(result.recording_errors) == 2
        assert store.event_count(result.run_id) == len(run.hub.history)  # every event still landed
    ok = await Run(compile_workflow(triad()), gateway=FakeGateway()).wait()
    assert ok.recording_errors == []
