"""One model call of a node, with its span, token deltas, budget accounting and node-level retry.

Invariants: every attempt is its own LLM span — `LLMCallStarted` carries `LLMRequest.to_record()`
and the closing `LLMCallFinished` carries `LLMResponse.to_record()` (what replay serves back) or
the error; a cancelled call still closes its span. Calls hold one of the run's `concurrency` slots.
The gateway retries the request itself (`request.retries`); on a retryable `LLMError` that survives
it, the runtime retries the node's call once more after a backoff. A node's `sim` param goes to the
provider as metadata `sim`, except its `output` key ("sql" / "python"), sent as metadata `output`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from engine.events import BudgetUpdated, LLMCallFinished, LLMCallStarted, LLMTokenDelta
from engine.graph.specs import DEFAULT_MODEL
from engine.llm.types import LLMError, LLMRequest, LLMResponse
from engine.runtime.plan import PlanNode
from engine.runtime.state import NodeFailed, RunState

NODE_RETRY_BACKOFF_S = 0.2


def model_for(state: RunState, node: PlanNode) -> str:
    return state.overrides.get(node.role) or str(node.param("model") or DEFAULT_MODEL)


async def call_llm(state: RunState, node: PlanNode, node_key: str, parent_span: str,
                   messages: list[dict[str, Any]], metadata: dict[str, Any],
                   model: str | None = None, tools: list[dict[str, Any]] | None = None) -> LLMResponse:
    model = model or model_for(state, node)
    retries = int(node.param("retries") or 0)
    attempts = 2 if retries > 0 else 1
    sim = dict(node.param("sim") or {})
    output = sim.pop("output", None)  # "sql" / "python": ask the simulated provider for code-shaped answers
    meta = {"role": node.role, "node_id": node_key, "seed": state.seed, "sim": sim,
            **({"output": output} if output else {}), **metadata}
    request = LLMRequest(model=model, messages=messages, temperature=float(node.param("temperature") or 0.0),
                         timeout_s=float(node.param("timeout_s") or 60.0), retries=retries, seed=state.seed,
                         tools=tools, metadata=meta)
    for attempt in range(1, attempts + 1):
        try:
            return await _attempt(state, node, node_key, parent_span, request)
        except LLMError as exc:
            if not exc.retryable or attempt == attempts:
                raise NodeFailed(f"model call failed after retries: {exc}") from exc
            await asyncio.sleep(NODE_RETRY_BACKOFF_S * attempt)
    raise AssertionError("unreachable")


async def _attempt(state: RunState, node: PlanNode, node_key: str, parent_span: str,
                   request: LLMRequest) -> LLMResponse:
    hub = state.hub
    async with state.slots:
        state.budget.before_call(node_key, hub.elapsed())
        span = hub.new_span("llm")
        hub.emit(LLMCallStarted, span_id=span, parent_id=parent_span, node_id=node_key, model=request.model,
                 request=request.to_record())

        loop, loop_thread = asyncio.get_running_loop(), threading.get_ident()

        def on_delta(text: str) -> None:  # a provider running in a worker thread may call this there
            if threading.get_ident() == loop_thread:
                hub.emit(LLMTokenDelta, span_id=span, parent_id=parent_span, text=text)
            else:
                loop.call_soon_threadsafe(lambda: hub.emit(LLMTokenDelta, span_id=span, parent_id=parent_span,
                                                           text=text))

        started = time.monotonic()
        try:
            response = await state.gateway.complete(request, on_delta)
        except asyncio.CancelledError:
            hub.emit(LLMCallFinished, span_id=span, parent_id=parent_span, node_id=node_key,
                     model=request.model, latency_s=time.monotonic() - started, error="cancelled",
                     error_type="CancelledError")
            raise
        except LLMError as exc:
            hub.emit(LLMCallFinished, span_id=span, parent_id=parent_span, node_id=node_key,
                     model=request.model, latency_s=time.monotonic() - started, error=str(exc),
                     error_type=type(exc).__name__)
            raise
        hub.emit(LLMCallFinished, span_id=span, parent_id=parent_span, node_id=node_key, model=request.model,
                 content=response.content, tokens_in=response.tokens_in, tokens_out=response.tokens_out,
                 cost_usd=response.cost_usd, latency_s=response.latency_s or time.monotonic() - started,
                 response=response.to_record())
    budget = state.budget
    total = budget.total
    try:
        budget.after_call(node_key, response.tokens_in, response.tokens_out, response.cost_usd,
                          int(node.param("max_tokens_budget") or 0), float(node.param("max_cost_usd") or 0.0))
    finally:
        hub.emit(BudgetUpdated, span_id=parent_span, tokens=total.tokens, cost_usd=total.cost_usd,
                 elapsed_s=hub.elapsed(), limits=budget.limits_record())
    return response
