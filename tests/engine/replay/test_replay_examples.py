"""Re-running every bundled example from its recording: identical outputs and per-node events, zero
provider calls, parallel tasks and vote samples served to the right call, a tampered recording caught."""

from __future__ import annotations

import pytest

from engine import events as ev
from engine.compare import compare
from engine.llm.sim import SimGateway
from engine.llm.types import DeltaCallback, LLMRequest, LLMResponse
from engine.projection import project
from engine.replay import load_source, prepare_replay, start_replay
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import (
    EXAMPLES,
    NAMES,
    NoProvider,
    outputs_by_node,
    per_node_kinds,
    record,
    replay,
)


@pytest.mark.asyncio
@pytest.mark.parametrize("name", NAMES)
async def test_replay_of_each_example_is_identical_with_zero_provider_calls(store: TraceStore, name: str) -> None:
    source = await record(store, name)
    NoProvider.calls = 0
    run, result = await replay(store, source.run_id, live=NoProvider())
    assert NoProvider.calls == 0
    assert result.status == source.status == "succeeded", result.reason
    assert result.outputs == source.outputs
    before, after = list(store.iter_events(source.run_id)), list(store.iter_events(result.run_id))
    assert per_node_kinds(after) == per_node_kinds(before)
    assert outputs_by_node(after) == outputs_by_node(before)
    assert [v.decision for v in result.verdicts] == [v.decision for v in source.verdicts]
    recorded_calls = sum(isinstance(e, ev.LLMCallStarted) for e in before)
    assert run._gateway.served == recorded_calls  # type: ignore[attr-defined]
    assert (result.tokens_in, result.tokens_out, result.cost_usd) == (source.tokens_in, source.tokens_out,
                                                                      source.cost_usd)
    summary = store.get_run(result.run_id)
    assert summary is not None and summary.replay_of == source.run_id
    assert not any(isinstance(e, ev.ReplayDiverged) for e in after)


class Jittered(SimGateway):
    """The simulated provider, but later tasks answer first: parallel calls complete out of order."""

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        import asyncio

        task = str(request.metadata.get("task_id") or "")
        await asyncio.sleep(0.05 if task.endswith("1") else 0.0)
        return await super().complete(request, on_delta)


def _answers(events: list[ev.Event], *fields: str) -> dict[tuple[object, ...], str]:
    """Each call's reply by its node and the request metadata `fields`, plus its position among those."""
    started: dict[str, tuple[object, ...]] = {}
    out: dict[tuple[object, ...], str] = {}
    for e in events:
        if isinstance(e, ev.LLMCallStarted) and e.span_id:
            meta = e.request["metadata"]
            base = (e.node_id, *(meta.get(f) for f in fields))
            n = sum(1 for k in out if k[:-1] == base) + sum(1 for k in started.values() if k[:-1] == base)
            started[e.span_id] = (*base, n)
        elif isinstance(e, ev.LLMCallFinished) and e.span_id in started:
            out[started.pop(e.span_id)] = e.content
    return out


@pytest.mark.asyncio
async def test_parallel_tasks_are_served_to_their_own_task(store: TraceStore) -> None:
    source = await record(store, "triad", gateway=Jittered())
    before = list(store.iter_events(source.run_id))
    started = [e.span_id for e in before if isinstance(e, ev.LLMCallStarted) and e.node_id == "executor"]
    finished = [e.span_id for e in before if isinstance(e, ev.LLMCallFinished) and e.node_id == "executor"]
    assert started != finished  # the recorded calls completed in another order than they started (t1 waits)
    _, result = await replay(store, source.run_id, live=NoProvider())
    after = list(store.iter_events(result.run_id))
    assert result.outputs == source.outputs
    assert _answers(after, "task_id", "round") == _answers(before, "task_id", "round")


@pytest.mark.asyncio
async def test_vote_samples_are_served_in_order(store: TraceStore) -> None:
    source = await record(store, "hanoi")
    _, result = await replay(store, source.run_id, live=NoProvider())
    before, after = list(store.iter_events(source.run_id)), list(store.iter_events(result.run_id))
    answers = _answers(before, "task_id", "sample", "role")
    assert len(set(answers.values())) > 1 and _answers(after, "task_id", "sample", "role") == answers


def _tampered(store: TraceStore, run_id: str, mode: str) -> object:
    source = load_source(store, run_id)
    call = next(c for c in source.recording.llm.values() if c.node_id == "critic")
    call.request = {**call.request, "messages": [{"role": "user", "content": "something else"}]}
    call.hash = "tampered"
    live = SimGateway() if mode == "fork" else NoProvider()
    return prepare_replay(source, mode=mode, live=live, base_dir=EXAMPLES)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_tampered_recording_stops_a_strict_replay_naming_the_node(store: TraceStore) -> None:
    source = await record(store, "triad")
    NoProvider.calls = 0
    run = start_replay(_tampered(store, source.run_id, "strict"), store)  # type: ignore[arg-type]
    result = await run.wait()
    assert NoProvider.calls == 0
    assert result.status == "failed" and "replay diverged at critic" in result.reason
    [diverged] = [e for e in run.hub.history if isinstance(e, ev.ReplayDiverged)]
    assert diverged.node_id == "critic" and diverged.action == "stopped"
    assert "message 1" in diverged.detail and "messages" in diverged.detail


@pytest.mark.asyncio
async def test_fork_on_divergence_runs_the_diverging_node_live(store: TraceStore) -> None:
    source = await record(store, "triad")
    run = start_replay(_tampered(store, source.run_id, "fork"), store)  # type: ignore[arg-type]
    result = await run.wait()
    assert result.status == "succeeded" and result.outputs == source.outputs  # the same sim answers live
    [diverged] = [e for e in run.hub.history if isinstance(e, ev.ReplayDiverged)]
    assert diverged.node_id == "critic" and diverged.action == "live"
    assert run._gateway.live_calls >= 1  # type: ignore[attr-defined]


@pytest.mark.asyncio
@pytest.mark.parametrize("name", ["code_fix", "text_to_sql"])
async def test_a_strict_replay_serves_checks_and_tools_without_running_them(
        store: TraceStore, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    source = await record(store, name)
    import engine.checks

    async def never(*args: object, **kw: object) -> object:
        raise AssertionError("a check ran again in a strict replay")

    monkeypatch.setattr(engine.checks, "run_check", never)
    run, result = await replay(store, source.run_id, live=NoProvider())
    assert result.status == "succeeded" and result.outputs == source.outputs
    checks = [e for e in run.hub.history if isinstance(e, ev.ToolCallFinished)]
    assert checks and run._tools.served == len(checks)  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_gateway_retries_and_node_retries_are_replayed(store: TraceStore) -> None:
    from engine.llm.retry import Backoff
    from engine.llm.sim.config import SimConfig

    flaky = SimGateway(sim=SimConfig(fail_first=1), backoff=Backoff(base_s=0.001, cap_s=0.001))
    source = await record(store, "triad", gateway=flaky)
    before = list(store.iter_events(source.run_id))
    assert any(isinstance(e, ev.LLMCallRetrying) for e in before)
    _, result = await replay(store, source.run_id, live=NoProvider())
    after = list(store.iter_events(result.run_id))
    assert result.outputs == source.outputs
    # each call's own events (its retries included) in the same order; the parallel tasks' calls of one
    # executor interleave as they are served, as they did as they were answered
    assert compare(project(before), project(after)).same
    assert [e.kind for e in after if isinstance(e, ev.LLMCallRetrying)] == \
        [e.kind for e in before if isinstance(e, ev.LLMCallRetrying)]


@pytest.mark.asyncio
async def test_a_run_cut_by_its_token_budget_is_cut_at_the_same_call(store: TraceStore) -> None:
    import json

    from engine.graph.format import workflow_from_dict
    from engine.runtime import Run, compile_workflow

    doc = json.loads((EXAMPLES / "triad.triadic.json").read_text())
    doc["settings"]["budget"]["max_tokens"] = 2500
    run = Run(compile_workflow(workflow_from_dict(doc), base_dir=EXAMPLES), gateway=SimGateway(), store=store)
    source = await run.wait()
    assert source.status == "budget_exceeded"
    _, result = await replay(store, source.run_id, live=NoProvider())
    assert (result.status, result.reason) == (source.status, source.reason)
    before, after = list(store.iter_events(source.run_id)), list(store.iter_events(result.run_id))
    assert per_node_kinds(after) == per_node_kinds(before)
    # the calls in flight when the budget cut the run are cancelled where each is at that moment: their
    # partial token counts follow the interleaving, not the recording
    assert abs(result.tokens_out - source.tokens_out) < 20 and result.tokens_in == source.tokens_in
