"""The artifact a human gate shows, as text to read or edit, and an edit read back into a value.

Invariants: a string artifact is shown and edited as plain text (the edit is the text itself);
anything else (dict, list, number, bool, None) is shown as indented JSON and an edit of it must be
valid JSON — `parse_edit` says where it is not, instead of passing a broken value to the run.
"""

from __future__ import annotations

import json
from typing import Any

PREVIEW_CHARS = 160


def artifact_to_text(value: Any) -> tuple[str, bool]:
    """(text, is_json): how `value` is shown and edited."""
    if value is None or isinstance(value, str):  # nothing to show (the recovery ladder asks about a failure)
        return value or "", False
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False), True
    except (TypeError, ValueError):
        return repr(value), False


def parse_edit(text: str, as_json: bool) -> tuple[Any, str]:
    """(value, "") for a good edit, (None, why) for JSON that does not parse."""
    if not as_json:
        return text, ""
    try:
        return json.loads(text), ""
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"


def preview(value: Any, limit: int = PREVIEW_CHARS) -> str:
    """One line of `value` for a table cell (newlines folded, cut at `limit` with an ellipsis)."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
