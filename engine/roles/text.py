"""Helpers shared by the LLM roles: turning values into prompt text, templates, JSON extraction.

Invariant: pure functions; templates only substitute the `{name}` placeholders they are given, so
literal braces in prompts (JSON examples) are left alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and "task" in value and isinstance(value["task"], str):
        return value["task"]
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)


def render(template: str, **values: Any) -> str:
    text = str(template or "")
    for name, value in values.items():
        text = text.replace("{" + name + "}", as_text(value))
    return text


def extract_json(text: str) -> Any:
    """The first JSON object in `text` (bare, or inside a ``` fence); ValueError saying why not."""
    stripped = text.strip()
    try:
        return json.loads(stripped)
    except ValueError:
        pass
    start = stripped.find("{")
    while start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(stripped, start)
            return value
        except ValueError:
            start = stripped.find("{", start + 1)
    raise ValueError(f"no JSON object in the reply (starts {stripped[:60]!r})")


def feedback_text(feedback: Mapping[str, Any] | None) -> str:
    if not feedback:
        return ""
    reasons = "; ".join(str(r) for r in feedback.get("reasons", [])) or "no reasons given"
    if feedback.get("failed"):  # the recovery ladder's replan after a node failed (runtime/recovery.py)
        return (f"\n\nThe previous attempt could not be carried out: {reasons}. "
                f"Produce a new version that avoids this.")
    return (f"\n\nA reviewer judged the previous attempt: {feedback.get('decision', 'revise')} "
            f"(score {float(feedback.get('score', 0.0)):.2f}). Reasons: {reasons}. "
            f"Previous attempt:\n{as_text(feedback.get('artifact'))}\nProduce an improved version.")
