"""Finding API keys and other secrets in node parameters, so that they never reach a workflow file.

Keys belong in the OS key store (the gateway reads them from there), never in a workflow file, an
event, an export or a log. A parameter whose name says it holds a secret (``api_key``, ``password``,
``client_secret``, ``access_token`` ...) or a text value shaped like a provider key (``sk-...``,
``AKIA...``, ``ghp_...``) is reported, at any depth inside JSON parameters.

Invariant: names such as ``max_tokens_budget`` or ``tokens_per_s`` are not secrets (a "token" is a
unit of text); only the compound names below count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

_SECRET_NAME = re.compile(
    r"api[_-]?keys?|secret|passw(?:or)?d|private[_-]?key|access[_-]?key|credential|"
    r"(?:auth|access|bearer|refresh|session|api)[_-]?token|authorization",
    re.IGNORECASE,
)
_SECRET_VALUE = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|"
    r"xox[abpr]-[A-Za-z0-9\-]{10,}|AIza[0-9A-Za-z_\-]{35})"
)


@lru_cache(maxsize=4096)
def is_secret_name(name: str) -> bool:
    return _SECRET_NAME.search(name) is not None


def looks_like_key(value: str) -> bool:
    return len(value) >= 20 and _SECRET_VALUE.search(value) is not None


def find_secrets(params: dict[str, Any]) -> Iterator[str]:
    """Paths (``api_key``, ``sim.headers.authorization``) of parameters that hold a secret."""
    stack: list[tuple[str, Any]] = [(str(k), v) for k, v in params.items()]
    while stack:
        path, value = stack.pop()
        if is_secret_name(path.rsplit(".", 1)[-1]):
            yield path
        elif isinstance(value, str):
            if looks_like_key(value):
                yield path
        elif isinstance(value, dict):
            stack.extend((f"{path}.{k}", v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
