"""The one adapter between the keys dialogs and `engine.llm.keys`: where a provider's key comes from,
storing and removing it in the OS keyring, reading preflight problems, and one tiny test call.

Everything that touches the keyring or the network blocks, so the dialogs call these from the loop's
executor, never on the GUI thread. A key typed with a server address is tested as that server's key
(`engine.llm.keys`: a custom server gets only the key stored for it, never a provider's).

Invariants: a key is only ever handed to the keyring or to the test call's resolver; no function here
returns it, logs it or puts it in a message (the test call's error is scrubbed with `redact`).
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass

from engine.llm.keys import KEYRING_SERVICE, PROVIDER_ENV_VARS, KeyResolver, redact, server_user

ENVIRONMENT, KEYRING, MISSING = "environment variable", "OS keyring", "missing"
DEFAULT_TEST_MODELS = {
    "openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-3-5-haiku-latest",
    "gemini": "gemini/gemini-1.5-flash", "mistral": "mistral/mistral-small-latest",
    "groq": "groq/llama-3.1-8b-instant", "deepseek": "deepseek/deepseek-chat", "xai": "xai/grok-2-latest",
    "openrouter": "openrouter/openai/gpt-4o-mini", "cohere_chat": "cohere_chat/command-r",
}
_PROBLEM = re.compile(r"(?:^|: )([a-z_]+): no API key: set the environment variable ([A-Z0-9_]+)")


@dataclass(frozen=True, slots=True)
class KeyState:
    provider: str
    env_var: str
    source: str  # ENVIRONMENT | KEYRING | MISSING
    detail: str = ""  # why the keyring could not be asked, when it could not


def providers() -> list[tuple[str, str]]:
    """(provider, environment variable) for every provider that needs a key, in the engine's order."""
    return list(PROVIDER_ENV_VARS.items())


def key_state(provider: str) -> KeyState:
    """Where `provider`'s key comes from now (blocking: may ask the OS keyring)."""
    env_var = PROVIDER_ENV_VARS.get(provider, f"{provider.upper()}_API_KEY")
    if os.environ.get(env_var, "").strip():
        return KeyState(provider, env_var, ENVIRONMENT)
    try:
        import keyring

        stored = keyring.get_password(KEYRING_SERVICE, provider)
    except Exception as exc:  # no backend on this machine, locked keychain
        return KeyState(provider, env_var, MISSING, f"the OS keyring cannot be read ({type(exc).__name__})")
    return KeyState(provider, env_var, KEYRING if stored and stored.strip() else MISSING)


def store_key(provider: str, key: str) -> None:
    """Store `key` for `provider` in the OS keyring (service "triadic", user = provider)."""
    import keyring

    keyring.set_password(KEYRING_SERVICE, provider, key.strip())


def remove_key(provider: str) -> bool:
    """Remove `provider`'s key from the OS keyring; False when there was none."""
    import keyring
    from keyring.errors import PasswordDeleteError

    try:
        keyring.delete_password(KEYRING_SERVICE, provider)
    except PasswordDeleteError:
        return False
    return True


def problem_provider(line: str) -> tuple[str, str] | None:
    """(provider, variable) a preflight line (`engine.runtime.preflight.missing_keys`) asks a key for."""
    found = _PROBLEM.search(line)
    return (found.group(1), found.group(2)) if found else None


def try_key(model: str, provider: str, key: str | None, api_base: str | None, timeout_s: float = 20.0) -> tuple[bool, str]:
    """One call of `model` answering at most one token (blocking; its own event loop, in a worker thread).
    `key` None: the key the app would use (environment, then keyring). (ok, what to tell the person)."""
    from engine.llm.gateway import Gateway
    from engine.llm.retry import Backoff
    from engine.llm.types import LLMRequest

    env_var = PROVIDER_ENV_VARS.get(provider, f"{provider.upper()}_API_KEY")
    if key and api_base:  # a key typed for a server address is that server's key (it gets no provider's)
        server = server_user(api_base)
        keys = KeyResolver(environ={}, keyring_get=lambda _service, user: key if user == server else None)
    elif key:
        keys = KeyResolver(environ={env_var: key}, keyring_get=None)
    else:
        keys = KeyResolver()
    request = LLMRequest(model=model, messages=[{"role": "user", "content": "Reply with OK."}], max_tokens=1,
                         stream=False, retries=0, timeout_s=timeout_s, api_base=api_base or None)
    try:
        response = asyncio.run(Gateway(keys=keys, backoff=Backoff(base_s=0.01, cap_s=0.01)).complete(request))
    except Exception as exc:
        return False, redact(f"{type(exc).__name__}: {exc}", [key])
    return True, f"OK: {response.model} answered in {response.latency_s:.2f} s"
