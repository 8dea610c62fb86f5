"""How a run's state looks on the canvas: colours per node state (light and dark), glyphs, badge text.

`NodeDecor` is what the run overlay keeps per node — the few fields the canvas shows, with the texts
already formatted, so painting a node's state reads attributes and never formats numbers.

Invariants: pure functions of their arguments; colours come from here only (the overlay layer and
the overview's flat boxes agree); a cost whose price is unknown reads "price unknown", never "$0".
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor

from engine.projection.rows import NodeRow

STATES = ("queued", "running", "waiting", "done", "failed", "skipped", "cancelled")

_LIGHT = {"queued": "#8c959f", "running": "#0969da", "waiting": "#bf8700", "done": "#1a7f37",
          "failed": "#cf222e", "skipped": "#8c959f", "cancelled": "#6e7781", "retrying": "#bc4c00"}
_DARK = {"queued": "#6e7681", "running": "#58a6ff", "waiting": "#e3b341", "done": "#3fb950",
         "failed": "#f85149", "skipped": "#6e7681", "cancelled": "#8b949e", "retrying": "#f0883e"}
_GLYPHS = {"queued": "◌", "running": "▶", "waiting": "✋", "done": "✓", "failed": "✗", "skipped": "⤼",
           "cancelled": "⊘", "retrying": "↻"}
_LABELS = {"waiting": "waiting for you", "retrying": "retrying"}
_COLORS: dict[tuple[str, bool], QColor] = {}


def state_color(state: str, dark: bool) -> QColor:
    key = (state, dark)
    color = _COLORS.get(key)
    if color is None:
        color = _COLORS[key] = QColor((_DARK if dark else _LIGHT).get(state, "#8c959f"))
    return color


def money(cost: float) -> str:
    if cost >= 1:
        return f"${cost:,.2f}"
    if cost >= 0.01:
        return f"${cost:.3f}"
    return f"${cost:.4f}" if cost else "$0"


def tokens_text(tokens: int) -> str:
    if tokens >= 1_000_000:
        return f"{tokens / 1_000_000:.1f}M tok"
    if tokens >= 10_000:
        return f"{tokens / 1000:.0f}k tok"
    if tokens >= 1000:
        return f"{tokens / 1000:.1f}k tok"
    return f"{tokens} tok"


@dataclass(slots=True)
class NodeDecor:
    """What the canvas shows of one node in a run (texts formatted once, when the row changes)."""

    state: str = "queued"
    chip: str = ""  # above the node: glyph + state (+ round / attempt)
    badge: str = ""  # below the node: tokens · cost
    error: str = ""
    dimmed: bool = False  # skipped / cancelled: the node is washed out
    fault: str = ""  # provider faults its calls met (retried or final), e.g. "rate_limit ×2"

    @classmethod
    def of(cls, row: NodeRow, fault: str = "") -> NodeDecor:
        state = row.state if row.state != "-" else "queued"
        label = _LABELS.get(state, state)
        chip = f"{_GLYPHS.get(state, '•')} {label}"
        if row.round:
            chip += f" · round {row.round}"  # as the CLI and the verdicts say it (0: the first)
        if row.attempt > 1:
            chip += f" · attempt {row.attempt}"
        if fault:
            chip += f" · ⚠ {fault}"
        badge = ""
        if row.llm_calls or row.tokens:
            cost = "price unknown" if row.unpriced_calls else money(row.cost_usd)
            badge = f"{tokens_text(row.tokens)} · {cost}"
        elif row.tool_calls:
            badge = f"{row.tool_calls} tool call{'s' if row.tool_calls != 1 else ''}"
        return cls(state, chip, badge, row.error, state in ("skipped", "cancelled"), fault)

    def tooltip(self) -> str:
        lines = [f"Run: {self.chip}"]
        if self.badge:
            lines.append(self.badge)
        if self.fault:
            lines.append(f"Provider faults: {self.fault}")
        if self.error:
            lines.append(f"Error: {self.error}")
        return "\n".join(lines)


def fault_text(kinds: dict[str, int]) -> str:
    """"rate_limit ×2, timeout" from the count of each fault kind a node's calls met."""
    return ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in kinds.items())
