"""The simulated provider as a litellm custom provider: `sim/...` models go through `acompletion`.

Registered by `engine.llm.litellm_setup` (never imported before litellm is needed). Reads the
request metadata (role, round, task, routes, seed, ... and the resolved `sim` settings) from
litellm's `litellm_params["metadata"]`, answers with `simulate()` and raises litellm's own
exception classes for injected faults, so they are mapped exactly like a real provider's errors.

Invariant: stateless — every call is a pure function of (seed, messages, metadata).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import litellm
from litellm import CustomLLM

from engine.llm.sim.config import SimConfig
from engine.llm.sim.responder import SimReply, simulate
from engine.llm.sim.stream import paced_deltas, wait_whole_reply


def _reply(model: str, messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> tuple[SimReply, SimConfig]:
    metadata = dict((kwargs.get("litellm_params") or {}).get("metadata") or {})
    config = SimConfig().merged(metadata.get("sim"), model=f"sim/{model}")
    seed = (kwargs.get("optional_params") or {}).get("seed")
    reply = simulate(f"sim/{model}", messages, metadata, seed, config)
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
        response.choices[0].finish_reason = "stop"
        response.usage = litellm.Usage(**_usage(reply))
        return response

    async def astreaming(self, model: str, messages: list[dict[str, Any]], **kwargs: Any) -> AsyncIterator[Any]:
        reply, config = _reply(model, messages, kwargs)
        async for delta in paced_deltas(reply, config):
            yield {"text": delta, "is_finished": False, "finish_reason": None, "usage": None, "index": 0,
                   "tool_use": None}
        yield {"text": "", "is_finished": True, "finish_reason": "stop", "usage": _usage(reply), "index": 0,
               "tool_use": None}


__all__ = ["SimProvider"]
