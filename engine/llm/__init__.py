"""LLM gateway: one async entry point over litellm (imported lazily), plus in-process providers.

Importing this package must not import litellm; `engine.llm.gateway.Gateway` does so on its first
call. `engine.llm.sim.SimGateway` serves `sim/...` models without litellm (engine benchmarks).
"""

from __future__ import annotations

from engine.llm.keys import KeyResolver, redact
from engine.llm.prices import PriceTable
from engine.llm.sim.config import SimConfig
from engine.llm.types import (
    AuthenticationError,
    BadRequestError,
    ChatGateway,
    LLMError,
    LLMRequest,
    LLMResponse,
    LLMTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
)

__all__ = [
    "AuthenticationError",
    "BadRequestError",
    "ChatGateway",
    "KeyResolver",
    "LLMError",
    "LLMRequest",
    "LLMResponse",
    "LLMTimeoutError",
    "PriceTable",
    "ProviderUnavailableError",
    "RateLimitedError",
    "SimConfig",
    "redact",
]
