"""The gateway every front end (CLI and window) runs with: `sim/...` in-process, the rest through litellm.

`SimGateway` gives the same replies, token counts, faults, retries and prices as `Gateway` does for
`sim/...` models, without importing litellm (1.6–3 s) — so an offline run of an example starts in
well under a second. Any other model (cloud, local, OpenAI-compatible server) goes through one
`Gateway`, created (and litellm imported) on the first such call only.

Set `TRIADIC_SIM_VIA_LITELLM=1` to send `sim/...` models through litellm too (the same path as real
models: useful to check a provider set-up end to end; costs the litellm import).

Invariant: implements `ChatGateway`; one gateway object per run.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable
from typing import TYPE_CHECKING

from engine.llm.sim import SimGateway
from engine.llm.types import DeltaCallback, LLMRequest, LLMResponse

if TYPE_CHECKING:
    from engine.llm.gateway import Gateway
    from engine.llm.prices import ModelPrice


class OfflineFirstGateway:
    def __init__(self) -> None:
        self._sim = SimGateway()
        self._full: Gateway | None = None
        self._sim_direct = os.environ.get("TRIADIC_SIM_VIA_LITELLM", "") not in ("1", "true", "yes")

    def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> Awaitable[LLMResponse]:
        if self._sim_direct and request.model.startswith("sim/"):
            return self._sim.complete(request, on_delta)
        return self._gateway().complete(request, on_delta)

    def price_of(self, request: LLMRequest) -> ModelPrice | None:
        """The price the call will be charged at, before it is made: what lets a cost budget cut a call
        while it streams (see `Gateway.price_of`)."""
        if self._sim_direct and request.model.startswith("sim/"):
            return self._sim.price_of(request)
        return self._gateway().price_of(request)

    def missing_key(self, model: str, api_base: str | None = None) -> str | None:
        """See `Gateway.missing_key` (asked before a run starts; litellm is not imported for it)."""
        if self._sim_direct and model.startswith("sim/"):
            return None
        return self._gateway().missing_key(model, api_base)

    def _gateway(self) -> Gateway:
        if self._full is None:
            from engine.llm.gateway import Gateway

            self._full = Gateway()
        return self._full
