"""LLM gateway: one async entry point over litellm (imported lazily), plus in-process providers.

Importing this package must not import litellm; `engine.llm.gateway` does so on first call.
"""

from __future__ import annotations

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
    "LLMError",
    "LLMRequest",
    "LLMResponse",
    "LLMTimeoutError",
    "ProviderUnavailableError",
    "RateLimitedError",
]
