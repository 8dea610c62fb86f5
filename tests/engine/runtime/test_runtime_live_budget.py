"""Token budgets are enforced while a call streams: the call is cut off, the run stops cleanly."""

from __future__ import annotations

import pytest

from engine.budget import Budget
from engine.events import (
    BudgetExceeded,
    BudgetUpdated,
    LLMCallFinished,
    LLMCallStarted,
    LLMTokenDelta,
    RunFinished,
)
from engine.llm.prices import ModelPrice
from engine.llm.sim import SimGateway
from engine.llm.types import LLMRequest
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import build

SLOW = {"tokens_per_s": 150, "chunk_words": 1}


def one_executor(node_budget: int = 0, **budget: float):  # type: ignore[no-untyped-def]
    return build([("in", "input", {"default": "write a long report on tea"}),
                  ("x", "executor", {"model": "sim/default", "sim": SLOW, "max_tokens_budget": node_budget}),
                  ("out", "output", {})], ["in.value->x.task", "x.result->out.value"], **budget)


async def full_call() -> LLMCallFinished:
    run = Run(compile_workflow(one_executor()), gateway=SimGateway())
    assert (await run.wait()).status == "succeeded"
    return next(e for e in run.hub.history if isinstance(e, LLMCallFinished))


@pytest.mark.asyncio
async def test_run_token_budget_cuts_a_streaming_call() -> None:
    full = await full_call()
    limit = full.tokens_in + 10
    run = Run(compile_workflow(one_executor(max_tokens=limit)), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded" and result.reason.startswith("run tokens budget exceeded at node x")
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert (hit.budget, hit.limit, hit.node_id) == ("tokens", limit, "x") and limit < hit.actual <= limit + 5
    cut = next(e for e in run.hub.history if isinstance(e, LLMCallFinished))
    assert cut.error_type == "BudgetHit" and "tokens budget exceeded" in (cut.error or "")
    assert cut.tokens_in == full.tokens_in and 10 < cut.tokens_out < full.tokens_out
    assert result.tokens_in + result.tokens_out == hit.actual  # the cut call's tokens count
    assert result.duration_s < full.latency_s  # stopped well before the reply finished
    streamed = "".join(e.text for e in run.hub.history if isinstance(e, LLMTokenDelta))
    assert streamed and streamed != full.content and full.content.startswith(streamed)
    assert run.state("x") == "failed" and run.hub.history[-1].kind == "run_finished"


@pytest.mark.asyncio
async def test_node_token_budget_cuts_a_streaming_call() -> None:
    full = await full_call()
    limit = full.tokens_in + 5
    run = Run(compile_workflow(one_executor(node_budget=limit)), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded" and result.reason.startswith("node tokens budget exceeded at node x")
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert hit.limit == limit and limit < hit.actual < full.tokens_in + full.tokens_out


@pytest.mark.asyncio
async def test_a_prompt_that_cannot_fit_makes_no_call() -> None:
    run = Run(compile_workflow(one_executor(max_tokens=5)), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded" and result.tokens_in == result.tokens_out == 0
    assert not [e for e in run.hub.history if isinstance(e, LLMCallFinished)]


@pytest.mark.asyncio
async def test_concurrent_streams_count_together_against_the_run_budget() -> None:
    wf = build([("in", "input", {"default": "write a long report on tea"}),
                ("a", "executor", {"model": "sim/default", "sim": SLOW}),
                ("b", "executor", {"model": "sim/default", "sim": SLOW, "prompt": "In detail: {task}"}),
                ("oa", "output", {"name": "a"}), ("ob", "output", {"name": "b"})],
               ["in.value->a.task", "in.value->b.task", "a.result->oa.value", "b.result->ob.value"])
    full = await full_call()
    limit = 2 * full.tokens_in + 30  # both streams together cross it well before either could finish
    wf.settings.budget = Budget(max_tokens=limit)
    run = Run(compile_workflow(wf), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded"
    closed = [e for e in run.hub.history if isinstance(e, LLMCallFinished)]
    assert len(closed) == 2 and {e.error_type for e in closed} == {"BudgetHit", "CancelledError"}
    assert all(e.tokens_out < full.tokens_out for e in closed)
    assert result.tokens_in + result.tokens_out == sum(e.tokens_in + e.tokens_out for e in closed)
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert limit < hit.actual <= limit + 5


PRICED = {**SLOW, "price_as": "gpt-4o-mini"}  # a simulated model charged at a real model's price


def priced_executor(node_max_cost: float = 0.0, **budget: float):  # type: ignore[no-untyped-def]
    return build([("in", "input", {"default": "write a long report on tea"}),
                  ("x", "executor", {"model": "sim/default", "sim": PRICED, "max_cost_usd": node_max_cost}),
                  ("out", "output", {})], ["in.value->x.task", "x.result->out.value"], **budget)


async def priced_full_call() -> tuple[LLMCallFinished, ModelPrice]:
    """The whole call of an unlimited priced executor, and the per-token price it was charged at."""
    gateway = SimGateway()
    run = Run(compile_workflow(priced_executor()), gateway=gateway)
    assert (await run.wait()).status == "succeeded"
    full = next(e for e in run.hub.history if isinstance(e, LLMCallFinished))
    price = gateway.price_of(gateway_requests(run)[0])
    assert price is not None and full.cost_usd == pytest.approx(price.cost(full.tokens_in, full.tokens_out))
    return full, price


@pytest.mark.asyncio
async def test_run_cost_budget_cuts_a_streaming_call_at_the_models_price() -> None:
    full, price = await priced_full_call()
    limit = price.cost(full.tokens_in, 10)  # the prompt and ten streamed tokens fit, the whole reply does not
    run = Run(compile_workflow(priced_executor(max_cost_usd=limit)), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded" and result.reason.startswith("run cost_usd budget exceeded at node x")
    hit = next(e for e in run.hub.history if isinstance(e, BudgetExceeded))
    assert hit.budget == "cost_usd" and limit < hit.actual < full.cost_usd
    cut = next(e for e in run.hub.history if isinstance(e, LLMCallFinished))
    assert cut.error_type == "BudgetHit" and 10 <= cut.tokens_out < full.tokens_out
    assert cut.cost_usd == pytest.approx(price.cost(cut.tokens_in, cut.tokens_out))
    assert result.cost_usd == pytest.approx(cut.cost_usd)  # what the cut call cost counts in the run's usage
    assert result.duration_s < full.latency_s


@pytest.mark.asyncio
async def test_node_cost_budget_cuts_a_streaming_call() -> None:
    full, price = await priced_full_call()
    run = Run(compile_workflow(priced_executor(node_max_cost=price.cost(full.tokens_in, 5))), gateway=SimGateway())
    result = await run.wait()
    assert result.status == "budget_exceeded" and result.reason.startswith("node cost_usd budget exceeded at node x")
    cut = next(e for e in run.hub.history if isinstance(e, LLMCallFinished))
    assert cut.error_type == "BudgetHit" and cut.cost_usd > 0 and result.cost_usd == pytest.approx(cut.cost_usd)


@pytest.mark.asyncio
async def test_a_free_model_is_not_cut_by_a_cost_budget() -> None:
    run = Run(compile_workflow(one_executor(max_cost_usd=1e-9)), gateway=SimGateway())  # sim/default is free
    assert (await run.wait()).status == "succeeded"


def gateway_requests(run: Run) -> list[LLMRequest]:
    """The requests of a finished run, rebuilt from its recorded `LLMCallStarted` events."""
    return [LLMRequest(model=e.request["model"], messages=e.request["messages"], metadata=e.request["metadata"])
            for e in run.hub.history if isinstance(e, LLMCallStarted)]


@pytest.mark.asyncio
async def test_budget_events_follow_each_call_of_a_limited_run_only() -> None:
    free = Run(compile_workflow(one_executor()), gateway=SimGateway())
    assert (await free.wait()).status == "succeeded"
    assert not [e for e in free.hub.history if isinstance(e, BudgetUpdated)]  # usage is in the calls and the end
    calls = [e for e in free.hub.history if isinstance(e, LLMCallFinished)]
    finished = free.hub.history[-1]
    assert isinstance(finished, RunFinished) and finished.tokens_out == sum(c.tokens_out for c in calls)
    for limited in (one_executor(max_tokens=100_000), one_executor(node_budget=100_000)):
        run = Run(compile_workflow(limited), gateway=SimGateway())
        assert (await run.wait()).status == "succeeded"
        (update,) = [e for e in run.hub.history if isinstance(e, BudgetUpdated)]
        (call,) = [e for e in run.hub.history if isinstance(e, LLMCallFinished)]
        assert update.seq > call.seq and update.tokens == call.tokens_in + call.tokens_out


def test_a_limit_crossed_again_raises_the_first_hit_never_a_cancel() -> None:
    """A second node crossing the exhausted budget gets the first `BudgetHit` (a CancelledError there
    could end the graph first and make the run read "cancelled by the user", its budget unrecorded)."""
    from engine.budget import Budget
    from engine.runtime.budget import BudgetHit, BudgetTracker
    from engine.runtime.nodesetup import CallSettings

    tracker = BudgetTracker(Budget(max_model_calls=1, max_tokens=100))
    free = CallSettings(0, None, {}, None, 0.0, 60.0, 0, 0.0, 0, False)
    tracker.before_call("a", free)
    with pytest.raises(BudgetHit) as first:
        tracker.before_call("b", free)
    for again in (lambda: tracker.before_call("c", free), lambda: tracker.stream("c", 500, 0)):
        with pytest.raises(BudgetHit) as later:
            again()
        assert later.value is first.value and later.value.node_id == "b"
