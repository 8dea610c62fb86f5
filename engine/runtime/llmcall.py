"""One model call of a node, with its span, token deltas, budget accounting and node-level retry.

Invariants: every attempt is its own LLM span — `LLMCallStarted` carries `LLMRequest.to_record()`
and the closing `LLMCallFinished` carries `LLMResponse.to_record()` (what replay serves back) or
the error; a cancelled call still closes its span. Calls hold one of the run's `concurrency` slots,
and one of their node's own (`PlanNode.setup.concurrency`, when set): `RunServices.call_slots`.
The gateway retries the request itself (`request.retries`) inside the span — a stream retried after
it broke is announced by `LLMStreamRestarted`, so the text after a span's last restart is its reply;
on a retryable `LLMError` that survives it, the runtime retries the node's call once more after a
backoff, in a new span. With a run or node token budget the call's tokens are counted while it
streams (`TokenMeter`), and with a cost budget their cost at the gateway's `price_of(request)` (when
the gateway has one and knows the price): crossing a limit cancels the call, closes its span with
the tokens and cost used so far (which count in the run's usage) and raises `BudgetHit`. The
node's call settings are its plan's (`PlanNode.setup.call`), worked out once per plan.
A node's `sim` param goes to the provider as metadata `sim`, except its `output` key ("sql" /
"python"), sent as metadata `output`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.events import BudgetUpdated, LLMCallFinished
from engine.llm.types import LLMError, LLMRequest, LLMResponse
from engine.runtime.nodesetup import CallSettings, call_settings
from engine.runtime.plan import PlanNode
from engine.runtime.run_services import NodeFailed, RunServices
from engine.runtime.streaming import CallDeltas, meter_for

NODE_RETRY_BACKOFF_S = 0.2
_new_request: Callable[..., LLMRequest] = LLMRequest.__new__  # its constructor without type.__call__ around it


def model_for(services: RunServices, node: PlanNode) -> str:
    return services.overrides.get(node.role) or node.setup.model


async def call_llm(services: RunServices, node: PlanNode, node_key: str, parent_span: str,
                   messages: list[dict[str, Any]], metadata: dict[str, Any],
                   model: str | None = None, tools: list[dict[str, Any]] | None = None) -> LLMResponse:
    model = model or model_for(services, node)
    settings = node.setup.call or call_settings(node)
    sim = dict(settings.sim) if settings.sim else {}  # the request's own copy
    meta = {"role": node.role, "node_id": node_key, "seed": services.seed, "sim": sim}
    if settings.sim_output:  # "sql" / "python": ask the simulated provider for code-shaped answers
        meta["output"] = settings.sim_output
    meta.update(metadata)
    request = _new_request(LLMRequest, model=model, messages=messages, temperature=settings.temperature,
                           timeout_s=settings.timeout_s, retries=settings.retries, seed=services.seed,
                           tools=tools, metadata=meta, api_base=settings.api_base)
    attempts = 2 if settings.retries > 0 else 1
    for attempt in range(1, attempts + 1):
        try:
            return await _attempt(services, settings, node_key, parent_span, request, node.setup.concurrency)
        except LLMError as exc:
            if not exc.retryable:  # a missing key, a refused request: retrying would not help
                raise NodeFailed(f"model call failed: {exc}") from exc
            if attempt == attempts:
                raise NodeFailed(f"model call failed after retries: {exc}") from exc
            await asyncio.sleep(NODE_RETRY_BACKOFF_S * attempt)
    raise AssertionError("unreachable")


async def _attempt(services: RunServices, settings: CallSettings, node_key: str, parent_span: str,
                   request: LLMRequest, cap: int) -> LLMResponse:
    hub, budget = services.hub, services.budget
    slots = services.call_slots(node_key, cap) if cap else services.slots
    if not slots.try_take():
        await slots.take()
    try:
        budget.before_call(node_key, settings)
        meter = meter_for(budget, node_key, request, settings, services.gateway)
        if meter.on:
            meter.start(request.messages)
            if meter.hit is not None:  # the prompt alone does not fit (or the budget is spent): no call
                meter.settle()
                raise meter.hit
        if (starting := getattr(services.gateway, "starting", None)) is not None:
            await starting(request)  # a replay announces the call at its recorded turn (engine/replay)
        span = hub.new_span("llm", parent_span)
        hub.llm_started(node_key, request.model, request.to_record(), span_id=span, parent_id=parent_span)

        on_delta = CallDeltas(services, span, parent_span, meter)

        started = time.monotonic()
        if meter.on:  # a task of its own, so that crossing a token budget can cancel the call
            meter.call = asyncio.ensure_future(services.gateway.complete(request, on_delta))
            call: Awaitable[LLMResponse] = meter.call
        else:
            call = services.gateway.complete(request, on_delta)
        try:
            response = await call
        except asyncio.CancelledError:
            meter.settle()
            task = asyncio.current_task()
            cut = meter.hit is not None and not (task is not None and task.cancelling())
            hub.emit(LLMCallFinished, span_id=span, parent_id=parent_span, node_id=node_key,
                     model=request.model, tokens_in=meter.prompt, tokens_out=meter.streamed,
                     cost_usd=meter.cost(), latency_s=time.monotonic() - started,
                     error=str(meter.hit) if cut else "cancelled", error_type="BudgetHit" if cut else "CancelledError")
            budget.commit(node_key, meter.prompt, meter.streamed, meter.cost(), settings.limited)
            _announce(services, parent_span, settings)
            if cut and meter.hit is not None:
                raise meter.hit from None
            raise
        except LLMError as exc:
            meter.settle()
            hub.emit(LLMCallFinished, span_id=span, parent_id=parent_span, node_id=node_key,
                     model=request.model, latency_s=time.monotonic() - started, error=str(exc),
                     error_type=type(exc).__name__)
            raise
        if meter.on:
            meter.settle()
        hub.llm_finished(node_key, request.model, span_id=span, parent_id=parent_span, content=response.content,
                         tokens_in=response.tokens_in, tokens_out=response.tokens_out, cost_usd=response.cost_usd,
                         latency_s=response.latency_s or time.monotonic() - started, response=response.to_record())
    finally:
        slots.release()
    try:
        budget.after_call(node_key, response.tokens_in, response.tokens_out, response.cost_usd, settings)
    finally:
        if budget.limited or settings.limited:
            _announce(services, parent_span, settings)
    return response


def _announce(services: RunServices, parent_span: str, settings: CallSettings) -> None:
    """The run's usage after a call, for runs (or nodes) with a limit to hold it against. Without any,
    the usage is in each `LLMCallFinished` and the run's totals in `RunFinished`."""
    if not (services.budget.limited or settings.limited):
        return
    total = services.budget.total  # the limits are in RunStarted.settings["budget"], not repeated per call
    services.hub.emit(BudgetUpdated, span_id=parent_span, tokens=total.tokens, cost_usd=total.cost_usd,
                   elapsed_s=services.budget.deadline_elapsed())  # as the deadline counts it
