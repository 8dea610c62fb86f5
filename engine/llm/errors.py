"""Translation of provider exceptions (litellm / openai / httpx / asyncio) into the typed `LLMError`s.

`to_llm_error(exc, provider=..., model=..., secrets=[key])` classifies by exception class name
along the MRO (so this module never imports litellm) and by HTTP status code: 429 -> RateLimitedError,
timeouts -> LLMTimeoutError, 401/403 -> AuthenticationError, 5xx and connection failures ->
ProviderUnavailableError, other 4xx -> BadRequestError. litellm's `MidStreamFallbackError` is unwrapped
to the error that broke the stream.

Invariant: the message is passed through `redact()` — no key survives in an error's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.llm.keys import redact
from engine.llm.types import (
    AuthenticationError,
    BadRequestError,
    LLMError,
    LLMTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
)

# Checked in this order along each exception's MRO: litellm's Timeout subclasses APIConnectionError.
_BY_CLASS_NAME: tuple[tuple[str, type[LLMError]], ...] = (
    ("RateLimitError", RateLimitedError),
    ("Timeout", LLMTimeoutError),
    ("APITimeoutError", LLMTimeoutError),
    ("TimeoutException", LLMTimeoutError),
    ("TimeoutError", LLMTimeoutError),
    ("AuthenticationError", AuthenticationError),
    ("PermissionDeniedError", AuthenticationError),
    ("ContextWindowExceededError", BadRequestError),
    ("ContentPolicyViolationError", BadRequestError),
    ("NotFoundError", BadRequestError),
    ("UnprocessableEntityError", BadRequestError),
    ("UnsupportedParamsError", BadRequestError),
    ("BadRequestError", BadRequestError),
    ("ServiceUnavailableError", ProviderUnavailableError),
    ("InternalServerError", ProviderUnavailableError),
    ("BadGatewayError", ProviderUnavailableError),
    ("APIConnectionError", ProviderUnavailableError),
    ("ConnectError", ProviderUnavailableError),
    ("ConnectionError", ProviderUnavailableError),
)

_HINTS: dict[type[LLMError], str] = {
    RateLimitedError: "rate limited by the provider",
    LLMTimeoutError: "timed out",
    AuthenticationError: "the provider rejected the API key",
    ProviderUnavailableError: "provider unavailable",
    BadRequestError: "the provider refused the request",
}


# "litellm.InternalServerError: InternalServerError: " prefixes repeat the class name; drop them.
_PREFIX = re.compile(r"^(?:(?:litellm\.)?[A-Za-z]*(?:Error|Exception|Timeout):\s*)+")


def _unwrap(exc: BaseException) -> BaseException:
    seen = 0
    while type(exc).__name__ == "MidStreamFallbackError" and seen < 5:
        inner = getattr(exc, "original_exception", None)
        if not isinstance(inner, BaseException):
            break
        exc, seen = inner, seen + 1
    return exc


def _by_status(status: object) -> type[LLMError] | None:
    if not isinstance(status, int):
        return None
    if status == 429:
        return RateLimitedError
    if status in (408, 504):
        return LLMTimeoutError
    if status in (401, 403):
        return AuthenticationError
    if status >= 500:
        return ProviderUnavailableError
    if status >= 400:
        return BadRequestError
    return None


def classify(exc: BaseException) -> type[LLMError]:
    exc = _unwrap(exc)
    names = [cls.__name__ for cls in type(exc).__mro__]
    for name, kind in _BY_CLASS_NAME:
        if name in names:
            return kind
    return _by_status(getattr(exc, "status_code", None)) or LLMError


def to_llm_error(exc: BaseException, *, provider: str, model: str, secrets: Iterable[str | None] = (),
                 attempts: int = 1, auth_hint: str = "") -> LLMError:
    """The typed error for `exc`, its message scrubbed of `secrets` and key-shaped strings;
    `auth_hint` (which variable to check) is appended to authentication failures."""
    if isinstance(exc, LLMError):
        return exc
    inner = _unwrap(exc)
    kind = classify(inner)
    detail = str(inner).strip().splitlines()[0] if str(inner).strip() else type(inner).__name__
    detail = _PREFIX.sub("", detail).strip() or type(inner).__name__
    hint = _HINTS.get(kind, "unexpected error")
    message = f"{hint}: {detail} ({type(inner).__name__})"
    if kind is AuthenticationError and auth_hint:
        message += f"; {auth_hint}"
    message = redact(message, secrets)
    error = kind(message, provider=provider, model=model, attempts=attempts)
    error.retry_after_s = retry_after(inner)
    return error


MAX_RETRY_AFTER_S = 120.0


def retry_after(exc: BaseException) -> float | None:
    """Seconds a provider asked to wait (`Retry-After`: seconds or an HTTP date; `retry-after-ms`),
    from the response the exception carries; None when it did not say. Capped at MAX_RETRY_AFTER_S."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or getattr(exc, "litellm_response_headers", None)
    if not headers:
        return None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            return min(MAX_RETRY_AFTER_S, max(0.0, float(ms) / 1000))
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            seconds = float(value)
        except ValueError:
            from email.utils import parsedate_to_datetime
            from time import time

            seconds = parsedate_to_datetime(str(value)).timestamp() - time()
        return min(MAX_RETRY_AFTER_S, max(0.0, seconds))
    except (TypeError, ValueError, AttributeError):
        return None


__all__ = ["MAX_RETRY_AFTER_S", "classify", "retry_after", "to_llm_error"]
