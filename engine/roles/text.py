"""Helpers shared by the LLM roles: turning values into prompt text, templates, JSON extraction.

Invariant: pure functions; templates only substitute the `{name}` placeholders they are given, so
literal braces in prompts (JSON examples) are left alone.
"""

from __future__ import annotations

import json
import re
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


_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n(.*?)```", re.DOTALL)


def render(template: str, **values: Any) -> str:
    text = str(template or "")
    for name, value in values.items():
        text = text.replace("{" + name + "}", as_text(value))
    return text


def extract_json(text: str) -> Any:
    """The JSON value of a reply: the whole reply, else the inside of its first ``` fence, else the
    first JSON object in it, else the first JSON list; ValueError saying why not."""
    stripped = text.strip()
    candidates = [stripped]
    if (fence := _FENCE.search(stripped)) is not None:
        candidates.append(fence.group(1).strip())
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    decoder = json.JSONDecoder()
    for opener in "{[":
        start = stripped.find(opener)
        while start != -1:
            try:
                return decoder.raw_decode(stripped, start)[0]
            except ValueError:
                start = stripped.find(opener, start + 1)
    raise ValueError(f"no JSON object in the reply (starts {stripped[:60]!r})")


def feedback_text(feedback: Mapping[str, Any] | None) -> str:
    if not feedback:
        return ""
    reasons = "; ".join(str(r) for r in feedback.get("reasons", [])) or "no reasons given"
    if feedback.get("failed"):  # the recovery ladder's replan after a node failed (runtime/recovery_ladder.py)
        return (f"\n\nThe previous attempt could not be carried out: {reasons}. "
                f"Produce a new version that avoids this.")
    return (f"\n\nA reviewer judged the previous attempt: {feedback.get('decision', 'revise')} "
            f"(score {float(feedback.get('score', 0.0)):.2f}). Reasons: {reasons}. "
            f"Previous attempt:\n{as_text(feedback.get('artifact'))}\nProduce an improved version.")
