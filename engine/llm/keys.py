"""API keys: resolved per provider from the environment or the OS keyring, and scrubbed from text.

Invariants: a key is only ever read here, at call time, and handed straight to the provider call;
it never enters an `LLMRequest`, a recorded request or response, an event, the DB or a log line.
Lookup order: the provider's environment variable, then the keyring (service "triadic",
username = provider). A keyring that fails (no backend on a headless box) counts as "no key".
`redact()` removes known keys and key-shaped strings from any text before it leaves the gateway.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping

from engine.llm.types import AuthenticationError

KEYRING_SERVICE = "triadic"

# The variable each provider reads its key from (litellm provider name -> variable).
PROVIDER_ENV_VARS: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "cohere": "COHERE_API_KEY",
    "cohere_chat": "COHERE_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "xai": "XAI_API_KEY",
    "fireworks_ai": "FIREWORKS_AI_API_KEY",
    "perplexity": "PERPLEXITYAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "huggingface": "HF_TOKEN",
}

_log = logging.getLogger(__name__)

# Key-shaped strings we scrub even when we do not know the key: "sk-...", "Bearer ...", "api_key=...".
_KEY_PATTERNS = (
    re.compile(r"\b(?:sk|pk|rk|gsk|xai)-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9_\-.=]{8,}"),
    re.compile(r"(?i)((?:api[_-]?key|x-api-key|authorization)[\"']?\s*[:=]\s*[\"']?)[^\s\"',}]{8,}"),
)
REDACTED = "[REDACTED]"


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every given secret (and any key-shaped string) replaced by [REDACTED]."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    for pattern in _KEY_PATTERNS:
        text = pattern.sub(lambda m: (m.group(1) if m.lastindex else "") + REDACTED, text)
    return text


def _keyring_get(service: str, username: str) -> str | None:
    import keyring  # imported lazily: finding a backend is slow and may fail on headless boxes

    value = keyring.get_password(service, username)
    return value if isinstance(value, str) else None


class KeyResolver:
    """Finds a provider's API key: environment first, then the OS keyring."""

    def __init__(
        self,
        *,
        environ: Mapping[str, str] | None = None,
        keyring_get: Callable[[str, str], str | None] | None = _keyring_get,
    ) -> None:
        self._environ = environ
        self._keyring_get = keyring_get

    def env_var(self, provider: str) -> str:
        """The environment variable a provider's key is read from."""
        return PROVIDER_ENV_VARS.get(provider, f"{provider.upper()}_API_KEY")

    def needs_key(self, provider: str) -> bool:
        return provider in PROVIDER_ENV_VARS

    def get(self, provider: str) -> str | None:
        """The key for `provider`, or None when neither the environment nor the keyring has one."""
        environ = os.environ if self._environ is None else self._environ
        value = environ.get(self.env_var(provider), "").strip()
        if value:
            return value
        if self._keyring_get is None:
            return None
        try:
            stored = self._keyring_get(KEYRING_SERVICE, provider)
        except Exception as exc:  # no backend, locked keychain, D-Bus missing: fall back to "none"
            _log.debug("keyring unavailable for %s: %s", provider, type(exc).__name__)
            return None
        return stored.strip() if stored and stored.strip() else None

    def require(self, provider: str, model: str) -> str:
        """The key for `provider`; AuthenticationError naming the variable to set when there is none."""
        key = self.get(provider)
        if key is None:
            raise AuthenticationError(self.no_key_message(provider), provider=provider, model=model)
        return key

    def no_key_message(self, provider: str) -> str:
        return (f"no API key: set the environment variable {self.env_var(provider)} or store it with "
                f"`keyring set {KEYRING_SERVICE} {provider}`")


__all__ = ["KEYRING_SERVICE", "PROVIDER_ENV_VARS", "REDACTED", "KeyResolver", "redact"]
