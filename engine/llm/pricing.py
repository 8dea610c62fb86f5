"""The per-token price a model call will be charged at, known before the call is made.

Invariant: the same price the gateways charge after the call (`Gateway._price`, `sim_price`):
litellm's bundled price map first, then the user's `PriceTable`; a `sim/...` model is priced as its
`price_as` model (or the name after "sim/"), and `sim/default` is free (None). The runtime uses it to
enforce cost budgets while a call streams.
"""

from __future__ import annotations

from engine.llm.prices import ModelPrice, PriceTable, bundled_price
from engine.llm.sim.config import SimConfig, priced_model
from engine.llm.types import LLMRequest


def call_price(request: LLMRequest, sim: SimConfig, table: PriceTable) -> ModelPrice | None:
    model: str | None = request.model
    if request.model.startswith("sim/"):
        model = priced_model(request.model, sim.merged(request.metadata.get("sim"), model=request.model))
    return None if model is None else model_price(model, table)


def model_price(model: str, table: PriceTable) -> ModelPrice | None:
    """`model`'s per-token price: litellm's bundled price map first, then the user's table."""
    return bundled_price(model) or table.get(model)
