"""Both gateways know a call's per-token price before making it, the same price they charge after."""

from __future__ import annotations

import pytest

from engine.llm.gateway import Gateway
from engine.llm.prices import PriceTable
from engine.llm.sim import SimGateway
from engine.llm.types import LLMRequest


def ask(model: str, **sim: object) -> LLMRequest:
    return LLMRequest(model, [{"role": "user", "content": "hello there"}], metadata={"sim": sim} if sim else {})


@pytest.mark.parametrize("gateway", [Gateway(prices=PriceTable()), SimGateway()])
def test_sim_default_is_free_and_price_as_takes_the_real_models_price(gateway: Gateway | SimGateway) -> None:
    assert gateway.price_of(ask("sim/default")) is None
    price = gateway.price_of(ask("sim/default", price_as="gpt-4o-mini"))
    assert price is not None and 0 < price.input_per_token < price.output_per_token


def test_a_real_model_has_the_bundled_price_and_an_unknown_one_the_user_table() -> None:
    table = PriceTable()
    table.set("acme/house-model", 1e-6, 2e-6)
    gateway = Gateway(prices=table)
    assert gateway.price_of(ask("openai/gpt-4o")) is not None
    assert gateway.price_of(ask("acme/house-model")) == table.get("acme/house-model")
    assert gateway.price_of(ask("acme/unknown-model")) is None


@pytest.mark.asyncio
async def test_the_price_before_the_call_is_what_the_call_costs() -> None:
    gateway = SimGateway()
    request = ask("sim/default", price_as="gpt-4o-mini")
    price = gateway.price_of(request)
    reply = await gateway.complete(request)
    assert price is not None and reply.cost_usd == pytest.approx(price.cost(reply.tokens_in, reply.tokens_out))
