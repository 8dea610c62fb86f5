"""The one adapter between the keys dialogs and `engine.llm.keys`: where each provider's and server's key
comes from, storing and removing one in the OS keyring, reading preflight problems, and one tiny test call.

Storing, removing and listing are the engine's (`store_key`, `delete_key`, `list_keys`, the same calls
`triadic keys` makes), so a provider ("openai") and a server address ("https://llm.example.com/v1") are
stored alike and a server's key goes only to that server. Everything that touches the keyring or the
network blocks, so the dialogs call these from the loop's executor, never on the GUI thread.

Invariants: a key is only ever handed to the keyring or to the test call's resolver; no function here
returns it, logs it or puts it in a message (the test call's error is scrubbed with `redact`).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from engine.llm.endpoints import is_loopback, is_plain_http, normalize_server
from engine.llm.keys import (  # noqa: F401 - delete_key, keyring_problem and store_key: the dialogs' calls
    PROVIDER_ENV_VARS,
    KeyResolver,
    delete_key,
    keyring_problem,
    list_keys,
    redact,
    server_user,
    store_key,
)

ENVIRONMENT, KEYRING, MISSING = "environment variable", "OS keyring", "missing"
PROVIDER, SERVER = "provider", "server"
DEFAULT_TEST_MODELS = {
    "openai": "openai/gpt-4o-mini", "anthropic": "anthropic/claude-3-5-haiku-latest",
    "gemini": "gemini/gemini-1.5-flash", "mistral": "mistral/mistral-small-latest",
    "groq": "groq/llama-3.1-8b-instant", "deepseek": "deepseek/deepseek-chat", "xai": "xai/grok-2-latest",
    "openrouter": "openrouter/openai/gpt-4o-mini", "cohere": "cohere_chat/command-r",
}
SERVER_TEST_MODEL = "openai/"  # an OpenAI-compatible server: the person names its model after the slash
_PROBLEM = re.compile(r"(?:^|: )([a-z_]+): no API key: set the environment variable ([A-Z0-9_]+)")
_SOURCES = {"environment": ENVIRONMENT, "keyring": KEYRING}


@dataclass(frozen=True, slots=True)
class KeyState:
    target: str  # a provider name, or a normalized server address
    kind: str  # PROVIDER | SERVER
    env_var: str  # the provider's variable ("" for a server: its key lives only in the keyring)
    source: str  # ENVIRONMENT | KEYRING | MISSING


def key_states(servers: list[str]) -> list[KeyState]:
    """Every provider, every server with a stored key and each of `servers` (blocking: asks the keyring)."""
    return [KeyState(s.target, s.kind, s.env_var or "", _SOURCES.get(s.source or "", MISSING))
            for s in list_keys(servers)]


def server_address(text: str) -> tuple[str, str | None]:
    """(normalized address, a warning or None) of a server address typed by a person; ValueError when
    it is no http(s) address."""
    address = normalize_server(text)
    warning = None
    if is_plain_http(address) and not is_loopback(address):
        warning = (f"{address} is plain http on another machine: Triadic never sends a key there — use "
                   "https, or a server on this machine")
    return address, warning


def problem_provider(line: str) -> tuple[str, str] | None:
    """(provider, variable) a preflight line (`engine.runtime.preflight.missing_keys`) asks a key for."""
    found = _PROBLEM.search(line)
    return (found.group(1), found.group(2)) if found else None


def try_key(model: str, target: str, kind: str, key: str | None, timeout_s: float = 20.0) -> tuple[bool, str]:
    """One call of `model` answering at most one token (blocking; its own event loop, in a worker thread),
    to the provider's own API or, for a server, to that server. `key` None: the key the app would use
    (environment, then keyring). (ok, what to tell the person)."""
    from engine.llm.gateway import Gateway
    from engine.llm.retry import Backoff
    from engine.llm.types import LLMRequest

    api_base = target if kind == SERVER else None
    if key and api_base:  # a key typed for a server is that server's key (it gets no provider's)
        server = server_user(api_base)
        keys = KeyResolver(environ={}, keyring_get=lambda _service, user: key if user == server else None)
    elif key:
        env_var = PROVIDER_ENV_VARS.get(target, f"{target.upper()}_API_KEY")
        keys = KeyResolver(environ={env_var: key}, keyring_get=None)
    else:
        keys = KeyResolver()
    request = LLMRequest(model=model, messages=[{"role": "user", "content": "Reply with OK."}], max_tokens=1,
                         stream=False, retries=0, timeout_s=timeout_s, api_base=api_base)
    try:
        response = asyncio.run(Gateway(keys=keys, backoff=Backoff(base_s=0.01, cap_s=0.01)).complete(request))
    except Exception as exc:
        return False, redact(f"{type(exc).__name__}: {exc}", [key])
    return True, f"OK: {response.model} answered in {response.latency_s:.2f} s"
