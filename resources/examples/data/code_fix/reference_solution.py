"""A correct solution (used by tests and as the simulated provider's final fix)."""

import re

_DURATION = re.compile(r"^\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*(?:(\d+)\s*s)?\s*$", re.IGNORECASE)


def parse_duration(text: str) -> int:
    if text.strip().isdigit():
        return int(text.strip())
    match = _DURATION.match(text)
    if match is None or not any(match.groups()):
        raise ValueError(f"not a duration: {text!r}")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds
