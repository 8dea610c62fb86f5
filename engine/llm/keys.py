"""API keys: where each key may go, how it is found, and the key-management API for a keys dialog.

Where a key may go (`KeyResolver.for_call`, used by the gateway on every call):
- a provider's key (its environment variable, else the keyring entry user=<provider>) goes only to
  that provider's own API: no `api_base`, or an `api_base` that is one of its own https hosts
  (`engine.llm.endpoints.PROVIDER_HOSTS`);
- any other `api_base` (a node's "Server address", possibly from a workflow someone shared) gets
  only the key stored for that server (keyring user "server:<normalized address>"), else a dummy
  key, so litellm never falls back to a provider variable of the environment;
- a key never goes over plain http to a host that is not this machine: AuthenticationError saying so.

Key-management API (what a GUI keys dialog or `triadic keys` calls; no Qt, never returns a key):
- `list_keys(servers=()) -> list[KeyStatus]`: every known provider, then every server with a stored
  key and the extra `servers` asked about; `KeyStatus(target, kind, is_set, source, env_var)`;
- `store_key(target, key)`: target is a provider name ("openai") or a server address
  ("https://llm.example.com/v1"); stored in the OS keyring (service "triadic");
- `delete_key(target)`: removes it (no error when there was none);
- `keyring_problem() -> str | None`: why the OS keyring cannot store keys here (None: it can).
`store_key`/`delete_key` raise `KeyStoreError` with a readable message (no keyring backend, bad target).

Invariants: a key is only ever read here, at call time, and handed straight to the provider call;
it never enters an `LLMRequest`, a recorded request or response, an event, the DB or a log line.
A keyring that fails (no backend on a headless box) counts as "no key" when reading.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine.llm.endpoints import (
    is_loopback,
    is_plain_http,
    is_provider_host,
    normalize_server,
    plain_http_refusal,
)
from engine.llm.redact import REDACTED, redact
from engine.llm.types import AuthenticationError

KEYRING_SERVICE = "triadic"
SERVER_PREFIX = "server:"
_SERVER_INDEX = "servers"  # keyring user holding the JSON list of servers with a stored key (not secret)

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
NO_KEY_PLACEHOLDER = "no-key"  # what a server without a stored key gets (local servers ignore it)
_log = logging.getLogger(__name__)


class KeyStoreError(RuntimeError):
    """A key could not be stored or deleted; the message says why, never the key."""


@dataclass(frozen=True, slots=True)
class KeyStatus:
    target: str  # provider name, or normalized server address
    kind: str  # "provider" or "server"
    is_set: bool
    source: str | None  # "environment", "keyring" or None
    env_var: str | None  # the provider's variable (None for servers)


def server_user(address: str) -> str:
    """The keyring user of a server's key: "server:<normalized address>"."""
    return SERVER_PREFIX + normalize_server(address)


def _keyring_get(service: str, username: str) -> str | None:
    import keyring  # imported lazily: finding a backend is slow and may fail on headless boxes

    value = keyring.get_password(service, username)
    return value if isinstance(value, str) else None


class KeyResolver:
    """Finds keys: a provider's in the environment then the keyring, a server's in the keyring."""

    def __init__(self, *, environ: Mapping[str, str] | None = None,
                 keyring_get: Callable[[str, str], str | None] | None = _keyring_get) -> None:
        self._environ = environ
        self._keyring_get = keyring_get

    def env_var(self, provider: str) -> str:
        """The environment variable a provider's key is read from."""
        return PROVIDER_ENV_VARS.get(provider, f"{provider.upper()}_API_KEY")

    def needs_key(self, provider: str) -> bool:
        return provider in PROVIDER_ENV_VARS

    def _stored(self, username: str) -> str | None:
        if self._keyring_get is None:
            return None
        try:
            stored = self._keyring_get(KEYRING_SERVICE, username)
        except Exception as exc:  # no backend, locked keychain, D-Bus missing: fall back to "none"
            _log.debug("keyring unavailable for %s: %s", username, type(exc).__name__)
            return None
        return stored.strip() if stored and stored.strip() else None

    def get(self, provider: str) -> str | None:
        """The key for `provider`, or None when neither the environment nor the keyring has one."""
        environ = os.environ if self._environ is None else self._environ
        value = environ.get(self.env_var(provider), "").strip()
        return value or self._stored(provider)

    def source(self, provider: str) -> str | None:
        environ = os.environ if self._environ is None else self._environ
        if environ.get(self.env_var(provider), "").strip():
            return "environment"
        return "keyring" if self._stored(provider) else None

    def for_server(self, address: str) -> str | None:
        """The key stored for the server at `address` (never a provider's key)."""
        try:
            return self._stored(server_user(address))
        except ValueError:
            return None

    def for_call(self, provider: str, model: str, api_base: str | None) -> str | None:
        """The key a call may carry (see the module docstring); AuthenticationError when a needed
        provider key is missing or a key would go over plain http to another machine."""
        if not api_base:
            return self.require(provider, model) if self.needs_key(provider) else None
        own = self.needs_key(provider) and is_provider_host(provider, api_base)
        key = (self.get(provider) if own else None) or self.for_server(api_base)
        if key is not None and is_plain_http(api_base) and not is_loopback(api_base):
            raise AuthenticationError(plain_http_refusal(api_base), provider=provider, model=model)
        return key or NO_KEY_PLACEHOLDER

    def hint(self, provider: str, api_base: str | None) -> str:
        """Where the key a rejected call carried came from, to say what to check."""
        if api_base and not (self.needs_key(provider) and is_provider_host(provider, api_base)):
            try:
                user = server_user(api_base)
                return (f"check the key stored for this server (`triadic keys set {user.removeprefix(SERVER_PREFIX)}`;"
                        f" keyring service {KEYRING_SERVICE!r}, user {user!r})")
            except ValueError:
                return "check the server address"
        return f"check {self.env_var(provider)} or the keyring entry for {provider!r}"

    def require(self, provider: str, model: str) -> str:
        """The key for `provider`; AuthenticationError naming the variable to set when there is none."""
        key = self.get(provider)
        if key is None:
            raise AuthenticationError(self.no_key_message(provider), provider=provider, model=model)
        return key

    def no_key_message(self, provider: str) -> str:
        return (f"no API key: set the environment variable {self.env_var(provider)} or store it with "
                f"`triadic keys set {provider}`")


def _target(target: str) -> tuple[str, str]:
    """(kind, keyring user) of a provider name or a server address."""
    text = target.strip()
    if text.lower().startswith(("http://", "https://")):
        try:
            return "server", server_user(text)
        except ValueError as exc:
            raise KeyStoreError(str(exc)) from None
    if not text or "/" in text or ":" in text:
        raise KeyStoreError(f"not a provider name or a server address: {target!r}")
    return "provider", text


def _servers_stored() -> list[str]:
    raw = KeyResolver()._stored(_SERVER_INDEX)
    try:
        found = json.loads(raw) if raw else []
    except json.JSONDecodeError:
        return []
    return [s for s in found if isinstance(s, str)] if isinstance(found, list) else []


def keyring_problem() -> str | None:
    """Why keys cannot be stored in the OS keyring here (None: they can)."""
    try:
        import keyring
        from keyring.backends import fail

        backend = keyring.get_keyring()
    except Exception as exc:
        return f"the OS keyring cannot be used: {type(exc).__name__}"
    if isinstance(backend, fail.Keyring):
        return ("no OS keyring is available (no Secret Service / KWallet / Keychain): set the provider's "
                "environment variable instead")
    return None


def _keyring_call(action: str, *args: str) -> None:
    import keyring

    problem = keyring_problem()
    if problem is not None:
        raise KeyStoreError(problem)
    try:
        getattr(keyring, action)(KEYRING_SERVICE, *args)
    except keyring.errors.PasswordDeleteError:
        return
    except Exception as exc:
        raise KeyStoreError(f"the OS keyring refused: {type(exc).__name__}") from None


def store_key(target: str, key: str) -> None:
    """Store `key` for a provider name or a server address in the OS keyring."""
    kind, user = _target(target)
    if not key.strip():
        raise KeyStoreError("the key is empty")
    _keyring_call("set_password", user, key.strip())
    if kind == "server":
        servers = sorted({*_servers_stored(), user.removeprefix(SERVER_PREFIX)})
        _keyring_call("set_password", _SERVER_INDEX, json.dumps(servers))


def delete_key(target: str) -> None:
    """Remove the key stored for a provider name or a server address (none stored: nothing to do)."""
    kind, user = _target(target)
    _keyring_call("delete_password", user)
    if kind == "server":
        servers = [s for s in _servers_stored() if s != user.removeprefix(SERVER_PREFIX)]
        _keyring_call("set_password", _SERVER_INDEX, json.dumps(servers))


def list_keys(servers: Iterable[str] = (), *, environ: Mapping[str, str] | None = None) -> list[KeyStatus]:
    """Whether each provider and server has a key, and where it comes from (never the key)."""
    resolver = KeyResolver(environ=environ)
    out = [KeyStatus(p, "provider", resolver.source(p) is not None, resolver.source(p), resolver.env_var(p))
           for p in sorted(PROVIDER_ENV_VARS) if p != "cohere_chat"]
    addresses: set[str] = set(_servers_stored())
    for address in servers:
        try:
            addresses.add(normalize_server(address))
        except ValueError:
            continue
    for address in sorted(addresses):
        stored = resolver.for_server(address) is not None
        out.append(KeyStatus(address, "server", stored, "keyring" if stored else None, None))
    return out


__all__ = ["KEYRING_SERVICE", "NO_KEY_PLACEHOLDER", "PROVIDER_ENV_VARS", "REDACTED", "KeyResolver",
           "KeyStatus", "KeyStoreError", "delete_key", "keyring_problem", "list_keys", "redact",
           "server_user", "store_key"]
