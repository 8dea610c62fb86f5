"""Side-by-side rendering of a unified diff: run A's lines on the left, run B's on the right.

`split(unified)` turns `difflib.unified_diff` lines into aligned (left, right, kind) rows: context
lines on both sides, a block of removals paired with the additions that follow it ("changed"), lone
removals ("only_a") and additions ("only_b") against a blank. `html(rows, side)` renders one side as
HTML with the changed lines tinted (escaped: outputs are model text). Pure functions, no Qt.
"""

from __future__ import annotations

import html as html_lib

Row = tuple[str | None, str | None, str]  # left text, right text, kind: same / changed / only_a / only_b
TINTS = {"changed": "rgba(224,160,40,0.25)", "only_a": "rgba(217,83,79,0.25)", "only_b": "rgba(46,157,87,0.25)"}


def split(unified: list[str]) -> list[Row]:
    rows: list[Row] = []
    removed: list[str] = []
    added: list[str] = []

    def flush() -> None:
        for index in range(max(len(removed), len(added))):
            left = removed[index] if index < len(removed) else None
            right = added[index] if index < len(added) else None
            kind = "changed" if left is not None and right is not None else "only_a" if right is None else "only_b"
            rows.append((left, right, kind))
        removed.clear()
        added.clear()

    for line in unified:
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            flush()
            rows.append(("⋯", "⋯", "same"))
        elif line.startswith("-"):
            if added:
                flush()
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
        else:
            flush()
            rows.append((line[1:], line[1:], "same"))
    flush()
    return rows


def html(rows: list[Row], side: int) -> str:
    """One side (0: A, 1: B) as pre-formatted HTML lines, tinted where the runs differ."""
    lines = []
    for row in rows:
        text, kind = row[side], row[2]
        body = html_lib.escape(text) if text is not None else "&nbsp;"
        tint = TINTS.get(kind)
        style = f' style="background-color:{tint}"' if tint and text is not None else ""
        lines.append(f"<div{style}>{body or '&nbsp;'}</div>")
    return '<div style="font-family:monospace; white-space:pre">' + "".join(lines) + "</div>"
