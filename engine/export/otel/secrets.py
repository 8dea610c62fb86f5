"""Keeping keys out of an export: every string attribute goes through `Scrubber` before it leaves.

The scrubber knows the keys this machine has — each provider's key (environment, then keyring), each
server key stored in the keyring, and any environment variable whose name says it holds a secret —
and replaces them, and anything key-shaped (`engine.llm.redact`), with [REDACTED]. It is applied to
every exported string whether or not content was asked for: a key a user pasted into a prompt, a
node title or an error message never reaches a receiver or a file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping

from engine.llm.keys import PROVIDER_ENV_VARS, KeyResolver, list_keys
from engine.llm.redact import redact

_SECRET_NAME = re.compile(r"(?i)(?:KEY|TOKEN|SECRET|PASSWORD)$")
_MIN_SECRET = 8  # shorter values would blank out ordinary words


def known_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The key values this machine holds for Triadic's providers and servers, longest first."""
    env = os.environ if environ is None else environ
    resolver = KeyResolver(environ=env)
    found = {value for name, value in env.items() if _SECRET_NAME.search(name)}
    found.update(resolver.get(provider) or "" for provider in PROVIDER_ENV_VARS)
    try:
        servers = [s.target for s in list_keys(environ=env) if s.kind == "server" and s.is_set]
    except Exception:  # a keyring that cannot be read holds no key we could leak
        servers = []
    found.update(resolver.for_server(address) or "" for address in servers)
    return sorted((s.strip() for s in found if len(s.strip()) >= _MIN_SECRET), key=len, reverse=True)


class Scrubber:
    """Replaces known secrets and key-shaped text in the strings of an export."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._secrets = tuple(secrets)

    def text(self, value: str) -> str:
        return redact(value, self._secrets)
