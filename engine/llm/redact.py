"""Scrubbing keys out of text: known secrets and anything key-shaped become [REDACTED].

Invariant: every text that leaves the gateway (error messages, logged reasons) went through
`redact()` first; it never raises and leaves text without secrets unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

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


__all__ = ["REDACTED", "redact"]
