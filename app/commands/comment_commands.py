"""Undo commands for comments (sticky notes) kept in `workflow.ui["comments"]`.

A comment is a dict {"id", "x", "y", "w", "h", "text", "color"}; each command replaces the whole
list through `SetUiCommand`, so undo restores it exactly.
"""

from __future__ import annotations

import itertools
from typing import Any

from app.commands.settings_commands import SetUiCommand
from engine.graph.model import Workflow

COMMENT_DEFAULTS: dict[str, Any] = {"w": 200.0, "h": 120.0, "text": "", "color": "#fff3b0"}


def comments_of(workflow: Workflow) -> list[dict[str, Any]]:
    comments = workflow.ui.get("comments")
    return [dict(c) for c in comments if isinstance(c, dict)] if isinstance(comments, list) else []


def new_comment_id(workflow: Workflow) -> str:
    used = {c.get("id") for c in comments_of(workflow)}
    return next(f"c{i}" for i in itertools.count(1) if f"c{i}" not in used)


def add_comment_command(workflow: Workflow, x: float, y: float, text: str = "") -> SetUiCommand:
    comment = {"id": new_comment_id(workflow), "x": x, "y": y, **COMMENT_DEFAULTS, "text": text}
    return SetUiCommand(workflow, "comments", [*comments_of(workflow), comment], "Add comment")


def edit_comment_command(workflow: Workflow, comment_id: str, fields: dict[str, Any]) -> SetUiCommand:
    comments = comments_of(workflow)
    if not any(c.get("id") == comment_id for c in comments):
        raise KeyError(f"no comment {comment_id!r}")
    changed = [{**c, **fields, "id": comment_id} if c.get("id") == comment_id else c for c in comments]
    return SetUiCommand(workflow, "comments", changed, "Edit comment")


def delete_comment_command(workflow: Workflow, comment_id: str) -> SetUiCommand:
    comments = comments_of(workflow)
    kept = [c for c in comments if c.get("id") != comment_id]
    if len(kept) == len(comments):
        raise KeyError(f"no comment {comment_id!r}")
    return SetUiCommand(workflow, "comments", kept or None, "Delete comment")
