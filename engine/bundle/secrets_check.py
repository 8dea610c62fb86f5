"""No secret leaves in a bundle: a member's text is refused when it holds something shaped like a
provider key or the value of a secret environment variable of this process (`OPENAI_API_KEY`, ...).

Runs on export (nothing is written) and on import (nothing is stored). Events never carry keys
(engine/events.py); this is the check that proves it for what is about to leave or enter.
"""

from __future__ import annotations

import os
import re

from engine.bundle.format import BundleError
from engine.graph.secret_scan import is_secret_name, looks_like_key

_MIN_SECRET_CHARS = 8


def _secret_values() -> list[str]:
    return [value for name, value in os.environ.items()
            if is_secret_name(name) and len(value) >= _MIN_SECRET_CHARS]


def refuse_secrets(member: str, text: str) -> None:
    """Raise `BundleError` naming the member and line when `text` holds a key."""
    values = _secret_values()
    if not looks_like_key(text) and not any(value in text for value in values):
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if looks_like_key(line) or any(value in line for value in values):
            shown = re.sub(r"\s+", " ", line)[:60]
            raise BundleError(f"{member} line {number} holds what looks like an API key ({shown}…); "
                              "a bundle never carries secrets")
    raise BundleError(f"{member} holds what looks like an API key; a bundle never carries secrets")
