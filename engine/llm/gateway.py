"""`Gateway`: the one async entry point for every model call, over `litellm.acompletion`.

Per call: resolve the provider (`sim`, `local`, or whatever litellm infers), fetch the key this
endpoint may get (`KeyResolver.for_call`: a provider's key only for its own hosts, a server's stored
key for a node's `api_base`; never from the request), call litellm with retries (exponential backoff + jitter on
rate limits / 5xx / connection errors / timeouts) under a per-attempt timeout, stream every delta to
`on_delta`, take usage from the stream, and price the call: litellm's bundled price map first, then
the user `PriceTable`; unpriced calls cost 0 with `priced=False`. `latency_s` is the wall time of
the whole call, retries and backoff included.

Invariants: litellm is imported on the first call (in a worker thread), not at import; errors are
typed `LLMError`s naming provider and model with any key scrubbed; the request metadata reaches only
in-process providers (`sim`, `local`), never a remote API. If a stream breaks and is retried,
`on_delta` sees the retried attempt's deltas again from the start, announced by
`on_delta.restart(attempt)` when the callback has it (see `StreamAttempts`). A stream that ends
without the provider's finish (a cut connection) is a retryable error, never a complete reply; a
429's `Retry-After` sets the wait before the retry (`engine.llm.retry`).
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from engine.llm.errors import to_llm_error
from engine.llm.keys import KeyResolver
from engine.llm.litellm_setup import litellm_loaded, load_litellm
from engine.llm.local import ensure_local_model
from engine.llm.prices import ModelPrice, PriceTable
from engine.llm.pricing import call_price
from engine.llm.retry import Backoff, with_retries
from engine.llm.sim.config import SimConfig, priced_model
from engine.llm.types import (
    BadRequestError,
    DeltaCallback,
    LLMError,
    LLMRequest,
    LLMResponse,
    LLMTimeoutError,
    ProviderUnavailableError,
    stream_attempts,
)

IN_PROCESS_PROVIDERS = ("sim", "local")
_OPENAI_NAME = re.compile(r"(gpt-|o\d)")  # model names litellm sends to OpenAI without a prefix


class Gateway:
    """Implements `ChatGateway` for sim/..., local/smollm2 and any litellm model id."""

    def __init__(self, *, prices: PriceTable | None = None, keys: KeyResolver | None = None,
                 sim: SimConfig | None = None, backoff: Backoff | None = None) -> None:
        # Default: the user's `<config>/triadic/prices.json` (ValueError naming the file if it is broken).
        self.prices = prices if prices is not None else PriceTable.load_user()
        self.keys = keys if keys is not None else KeyResolver()
        self.sim = sim or SimConfig()
        self.backoff = backoff or Backoff()

    def price_of(self, request: LLMRequest) -> ModelPrice | None:
        """The per-token price `request` will be charged at (None: free or unknown), before the call."""
        return call_price(request, self.sim, self.prices)

    def missing_key(self, model: str, api_base: str | None = None) -> str | None:
        """Why a call to `model` would fail for want of an API key, before any call is made; None when
        it has its key, needs none (in-process, keyless providers, a server address), or when only the
        call can tell (a model without a provider prefix, other than OpenAI's gpt-… / o1… names, which
        litellm sends to OpenAI)."""
        provider = model.split("/", 1)[0] if "/" in model else "openai" if _OPENAI_NAME.match(model) else ""
        if api_base and provider not in IN_PROCESS_PROVIDERS:
            try:
                self.keys.for_call(provider or "openai", model, api_base)
            except LLMError as exc:
                return f"{model} at {api_base}: {exc.reason}"
            return None
        if not provider or provider in IN_PROCESS_PROVIDERS or not self.keys.needs_key(provider):
            return None
        if self.keys.get(provider) is not None:
            return None
        return f"{provider}: {self.keys.no_key_message(provider)}"

    def _provider(self, litellm: Any, request: LLMRequest) -> str:
        prefix = request.model.split("/", 1)[0] if "/" in request.model else ""
        if prefix in IN_PROCESS_PROVIDERS:
            return prefix
        try:
            return str(litellm.get_llm_provider(model=request.model, api_base=request.api_base)[1])
        except Exception as exc:
            raise BadRequestError(
                f"cannot tell which provider serves this model ({type(exc).__name__}); write it as "
                "provider/model, e.g. openai/gpt-4o-mini or ollama/llama3", provider="", model=request.model,
            ) from None

    def _key(self, provider: str, request: LLMRequest) -> str | None:
        """The key for this call: none for in-process providers; otherwise what `KeyResolver.for_call`
        allows (a provider's key only for its own endpoints, a server's stored key for an `api_base`,
        never a key over plain http to another machine)."""
        if provider in IN_PROCESS_PROVIDERS:
            return None
        return self.keys.for_call(provider, request.model, request.api_base)

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        metadata = dict(request.metadata)
        sim_config = self.sim
        if request.model.startswith("sim/"):
            sim_config = self.sim.merged(metadata.get("sim"), model=request.model)
            metadata["sim"] = sim_config.to_dict()
        elif request.model.startswith("local/"):
            ensure_local_model(request.model)
        # the first call imports litellm (~2-3 s): in a worker thread, so the loop (and a GUI on it) keeps going
        litellm = load_litellm() if litellm_loaded() else await asyncio.to_thread(load_litellm)
        provider = self._provider(litellm, request)
        key = self._key(provider, request)
        started = time.perf_counter()
        stream = stream_attempts(on_delta)

        async def attempt(number: int) -> LLMResponse:
            if stream is not None:
                stream.new_attempt(number)
            try:
                async with asyncio.timeout(request.timeout_s):
                    content, usage, finish, tool_calls, full = await self._call(
                        litellm, request, provider, key, {**metadata, "attempt": number}, stream)
            except LLMError:
                raise
            except TimeoutError:
                raise LLMTimeoutError(f"timed out after {request.timeout_s:g} s", provider=provider,
                                      model=request.model, attempts=number) from None
            except Exception as exc:
                hint = self.keys.hint(provider, request.api_base)
                raise to_llm_error(exc, provider=provider, model=request.model, secrets=[key],
                                   attempts=number, auth_hint=hint) from None
            tokens_in, tokens_out = usage
            cost, priced = self._price(litellm, request, provider, sim_config, full, tokens_in, tokens_out)
            return LLMResponse(content=content, model=request.model, provider=provider, tokens_in=tokens_in,
                               tokens_out=tokens_out, cost_usd=cost, latency_s=time.perf_counter() - started,
                               finish_reason=finish, tool_calls=tool_calls, priced=priced)

        return await with_retries(attempt, retries=request.retries, backoff=self.backoff,
                                  on_retry=stream.retrying if stream is not None else None)

    async def _call(self, litellm: Any, request: LLMRequest, provider: str, key: str | None,
                    metadata: dict[str, Any], on_delta: DeltaCallback | None,
                    ) -> tuple[str, tuple[int, int], str | None, list[dict[str, Any]], Any]:
        kwargs: dict[str, Any] = {"model": request.model, "messages": request.messages,
                                  "temperature": request.temperature, "timeout": request.timeout_s,
                                  "stream": request.stream, "num_retries": 0, "max_retries": 0}
        optional = {"max_tokens": request.max_tokens, "tools": request.tools, "seed": request.seed,
                    "api_base": request.api_base, "api_key": key}
        kwargs.update({k: v for k, v in optional.items() if v is not None})
        if provider in IN_PROCESS_PROVIDERS:
            kwargs["metadata"] = metadata
        if request.stream:
            kwargs["stream_options"] = {"include_usage": True}
        response = await litellm.acompletion(**kwargs)
        if request.stream:
            chunks, pieces, finish, usage_seen, tools_seen = [], [], None, None, False
            async for chunk in response:
                chunks.append(chunk)
                if chunk.choices:
                    delta = chunk.choices[0].delta
                    finish = chunk.choices[0].finish_reason or finish
                    tools_seen = tools_seen or bool(getattr(delta, "tool_calls", None))
                    if delta.content:
                        pieces.append(delta.content)
                        if on_delta is not None:
                            on_delta(delta.content)
                usage_seen = getattr(chunk, "usage", None) or usage_seen
            if provider not in IN_PROCESS_PROVIDERS and _stream_cut(response):
                raise ProviderUnavailableError("the reply stream ended without its end (connection cut?); "
                                               f"{len(pieces)} pieces received", provider=provider,
                                               model=request.model)
            if provider in IN_PROCESS_PROVIDERS and usage_seen is not None and not tools_seen:
                # Fast path: in-process providers are priced without a response object, skip the rebuild.
                tokens = (int(usage_seen.prompt_tokens or 0), int(usage_seen.completion_tokens or 0))
                return "".join(pieces), tokens, finish, [], None
            response = litellm.stream_chunk_builder(chunks, messages=request.messages)
            if response is None:
                raise BadRequestError("the provider streamed no data", provider=provider, model=request.model)
        choice = response.choices[0]
        usage = getattr(response, "usage", None)
        tokens = (int(getattr(usage, "prompt_tokens", 0) or 0), int(getattr(usage, "completion_tokens", 0) or 0))
        tool_calls = [call.model_dump() if hasattr(call, "model_dump") else dict(call)
                      for call in (getattr(choice.message, "tool_calls", None) or [])]
        return choice.message.content or "", tokens, choice.finish_reason, tool_calls, response

    def _price(self, litellm: Any, request: LLMRequest, provider: str, sim_config: SimConfig, response: Any,
               tokens_in: int, tokens_out: int) -> tuple[float, bool]:
        """(cost in USD, priced?) from litellm's price map, else the user table, else (0, False)."""
        if provider == "local":
            return 0.0, True
        price_model = priced_model(request.model, sim_config) if provider == "sim" else request.model
        if price_model is None:
            return 0.0, True  # sim/default is free
        try:
            if provider == "sim":
                cost_in, cost_out = litellm.cost_per_token(model=price_model, prompt_tokens=tokens_in,
                                                           completion_tokens=tokens_out)
                return float(cost_in + cost_out), True
            return float(litellm.completion_cost(completion_response=response, model=price_model)), True
        except Exception:  # ModelNotMappedError and friends: litellm has no price for this model
            cost = self.prices.cost(price_model, tokens_in, tokens_out)
            return (0.0, False) if cost is None else (cost, True)


def _stream_cut(stream: Any) -> bool:
    """Whether litellm's stream ended without the provider's end (no finish reason ever arrived: the
    connection was cut). litellm then makes up finish_reason "stop" for the reply it rebuilds."""
    received = getattr(stream, "received_finish_reason", "unknown")
    return received is None and getattr(stream, "intermittent_finish_reason", None) is None


__all__ = ["Gateway"]
