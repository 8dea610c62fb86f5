"""Gateway basics: lazy litellm import, unknown providers, request records without secrets."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.llm.gateway import Gateway
from engine.llm.types import BadRequestError, ChatGateway, LLMRequest


def test_importing_the_gateway_does_not_import_litellm() -> None:
    code = ("import sys, engine, engine.llm, engine.llm.gateway, engine.llm.sim; "
            "assert 'litellm' not in sys.modules, 'litellm imported at import time'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.asyncio
async def test_model_without_a_known_provider_is_a_clear_bad_request() -> None:
    with pytest.raises(BadRequestError, match="provider/model"):
        await Gateway().complete(LLMRequest(model="totally-unknown-model", messages=[{"role": "user", "content": "x"}]))


def test_gateway_satisfies_the_chat_gateway_protocol() -> None:
    from engine.llm.sim import SimGateway

    gateways: list[ChatGateway] = [Gateway(), SimGateway()]
    assert all(callable(g.complete) for g in gateways)
