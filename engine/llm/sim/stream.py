"""Pacing of simulated replies: time to first token, then deltas at the configured tokens/s.

Invariant: with `latency_ms == 0` and `tokens_per_s == 0` nothing sleeps (benchmarks measure the
engine, not the fake model); the concatenated deltas always equal the reply content.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from engine.llm.sim.config import SimConfig
from engine.llm.sim.responder import SimReply
from engine.llm.tokens import count_text


async def wait_first_token(config: SimConfig) -> None:
    if config.latency_ms > 0:
        await asyncio.sleep(config.latency_ms / 1000.0)


async def paced_deltas(reply: SimReply, config: SimConfig) -> AsyncIterator[str]:
    """The reply's deltas (`chunk_words` words each), after the first-token wait, at `tokens_per_s`."""
    await wait_first_token(config)
    for chunk in reply.chunks(config.chunk_words):
        if config.tokens_per_s > 0:
            await asyncio.sleep(count_text(chunk, reply.price_model or "") / config.tokens_per_s)
        yield chunk


async def wait_whole_reply(reply: SimReply, config: SimConfig) -> None:
    """What a non-streaming call waits: first token plus the whole reply at `tokens_per_s`."""
    await wait_first_token(config)
    if config.tokens_per_s > 0:
        await asyncio.sleep(reply.tokens_out / config.tokens_per_s)


__all__ = ["paced_deltas", "wait_first_token", "wait_whole_reply"]
