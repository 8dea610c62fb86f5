"""The simulated provider as a litellm custom provider: `sim/...` models go through `acompletion`.

Registered by `engine.llm.litellm_setup` (never imported before litellm is needed). Reads the
request metadata (role, round, task, routes, seed, ... and the resolved `sim` settings) from
litellm's `litellm_params["metadata"]`, answers with `simulate()` and raises litellm's own
exception classes for injected faults, so they are mapped exactly like a real provider's errors.
Tool calls (see `toolcalls`) come back as the message's `tool_calls`, streamed as `tool_use` chunks.

Invariant: stateless — every call is a pure function of (seed, messages, metadata).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import litellm
from litellm import CustomLLM
from litellm.types.utils import ChatCompletionMessageToolCall

from engine.llm.sim.config import SimConfig
from engine.llm.sim.responder import SimReply, simulate
from engine.llm.sim.stream import paced_deltas, wait_whole_reply
from engine.llm.types import BadRequestError


def _reply(model: str, messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> tuple[SimReply, SimConfig]:
    metadata = dict((kwargs.get("litellm_params") or {}).get("metadata") or {})
    config = SimConfig().merged(metadata.get("sim"), model=f"sim/{model}")
    optional = kwargs.get("optional_params") or {}
    try:
        reply = simulate(f"sim/{model}", messages, metadata, optional.get("seed"), config, optional.get("tools"))
    except BadRequestError as exc:
        raise litellm.BadRequestError(exc.reason, model=model, llm_provider="sim") from None
    if reply.fault == "rate_limit":
        raise litellm.RateLimitError("simulated rate limit (429)", llm_provider="sim", model=model)
    if reply.fault == "server_error":
        raise litellm.InternalServerError("simulated server error (500)", llm_provider="sim", model=model)
    if reply.fault == "timeout":
        raise litellm.Timeout("simulated timeout", model=model, llm_provider="sim")
    return reply, config


def _usage(reply: SimReply) -> dict[str, int]:
    return {"prompt_tokens": reply.tokens_in, "completion_tokens": reply.tokens_out,
            "total_tokens": reply.tokens_in + reply.tokens_out}


class SimProvider(CustomLLM):  # type: ignore[misc]
    """litellm handler for the `sim` provider."""

    async def acompletion(self, model: str, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        reply, config = _reply(model, messages, kwargs)
        await wait_whole_reply(reply, config)
        response = kwargs["model_response"]
        response.model = f"sim/{model}"
        response.choices[0].message.content = reply.content
        if reply.tool_calls:
            response.choices[0].message.tool_calls = [
                ChatCompletionMessageToolCall(**call) for call in reply.tool_calls]
        response.choices[0].finish_reason = "tool_calls" if reply.tool_calls else "stop"
        response.usage = litellm.Usage(**_usage(reply))
        return response

    async def astreaming(self, model: str, messages: list[dict[str, Any]], **kwargs: Any) -> AsyncIterator[Any]:
        reply, config = _reply(model, messages, kwargs)
        async for delta in paced_deltas(reply, config):
            yield {"text": delta, "is_finished": False, "finish_reason": None, "usage": None, "index": 0,
                   "tool_use": None}
        for index, call in enumerate(reply.tool_calls):
            yield {"text": "", "is_finished": False, "finish_reason": None, "usage": None, "index": 0,
                   "tool_use": {**call, "index": index}}
        yield {"text": "", "is_finished": True, "finish_reason": "tool_calls" if reply.tool_calls else "stop",
               "usage": _usage(reply), "index": 0, "tool_use": None}


__all__ = ["SimProvider"]
