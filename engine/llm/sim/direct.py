"""`SimGateway`: the simulated provider without litellm — the zero-overhead gateway for engine benchmarks.

Same replies, token counts, faults (as typed errors), retries and prices as `Gateway` with a
`sim/...` model, but no litellm import and no per-call litellm overhead. Prices come from litellm's
bundled price file (read directly) and then the user's `PriceTable`.

Invariant: implements `ChatGateway`; serves only `sim/...` models (BadRequestError otherwise).
"""

from __future__ import annotations

import asyncio
import time

from engine.llm.prices import ModelPrice, PriceTable
from engine.llm.pricing import call_price, model_price
from engine.llm.retry import Backoff, with_retries
from engine.llm.sim.config import SimConfig
from engine.llm.sim.responder import simulate
from engine.llm.sim.stream import paced_deltas, wait_whole_reply
from engine.llm.types import (
    BadRequestError,
    DeltaCallback,
    LLMError,
    LLMRequest,
    LLMResponse,
    LLMTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
    stream_attempts,
)

_FAULT_ERRORS: dict[str, tuple[type[LLMError], str]] = {
    "rate_limit": (RateLimitedError, "rate limited by the provider: simulated rate limit (429)"),
    "server_error": (ProviderUnavailableError, "provider unavailable: simulated server error (500)"),
    "timeout": (LLMTimeoutError, "timed out: simulated timeout"),
}


def sim_price(price_model: str | None, tokens_in: int, tokens_out: int, table: PriceTable) -> tuple[float, bool]:
    """(cost, priced) of a sim call: free for `sim/default`, else the bundled price, else the table."""
    if price_model is None:
        return 0.0, True
    price = model_price(price_model, table)
    return (0.0, False) if price is None else (price.cost(tokens_in, tokens_out), True)


class SimGateway:
    """A `ChatGateway` that answers `sim/...` models in-process."""

    def __init__(self, *, sim: SimConfig | None = None, prices: PriceTable | None = None,
                 backoff: Backoff | None = None) -> None:
        self.sim = sim or SimConfig()
        self.prices = prices or PriceTable()
        self.backoff = backoff or Backoff()

    def price_of(self, request: LLMRequest) -> ModelPrice | None:
        """The per-token price `request` will be charged at (None: free or unknown), before the call."""
        return call_price(request, self.sim, self.prices)

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        if not request.model.startswith("sim/"):
            raise BadRequestError("SimGateway serves only sim/... models", provider="", model=request.model)
        config = self.sim.merged(request.metadata.get("sim"), model=request.model)
        started = time.perf_counter()
        stream = stream_attempts(on_delta)

        async def attempt(number: int) -> LLMResponse:
            if stream is not None:
                stream.new_attempt(number)
            metadata = {**request.metadata, "attempt": number}
            reply = simulate(request.model, request.messages, metadata, request.seed, config, request.tools)
            if reply.fault in _FAULT_ERRORS:
                kind, message = _FAULT_ERRORS[reply.fault]
                raise kind(message, provider="sim", model=request.model, attempts=number)
            try:
                async with asyncio.timeout(request.timeout_s):
                    if request.stream:
                        async for delta in paced_deltas(reply, config):
                            if stream is not None:
                                stream(delta)
                    else:
                        await wait_whole_reply(reply, config)
            except TimeoutError:
                raise LLMTimeoutError(f"timed out after {request.timeout_s:g} s", provider="sim",
                                      model=request.model, attempts=number) from None
            cost, priced = sim_price(reply.price_model, reply.tokens_in, reply.tokens_out, self.prices)
            return LLMResponse(
                content=reply.content, model=request.model, provider="sim", tokens_in=reply.tokens_in,
                tokens_out=reply.tokens_out, cost_usd=cost, latency_s=time.perf_counter() - started,
                finish_reason="tool_calls" if reply.tool_calls else "stop", tool_calls=list(reply.tool_calls),
                priced=priced,
            )

        return await with_retries(attempt, retries=request.retries, backoff=self.backoff,
                                  on_retry=stream.retrying if stream is not None else None)


__all__ = ["SimGateway", "sim_price"]
