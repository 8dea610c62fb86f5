"""How each role looks: colour (light and dark theme), outline shape and icon glyph.

Shared by the canvas and the palette so a role looks the same everywhere.

Invariants: every role of the catalog has an entry; an unknown role (a file from a newer
Triadic, a typo) gets a neutral grey rectangle with a question mark instead of an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor


@dataclass(frozen=True, slots=True)
class RoleLook:
    light: str  # fill accent in the light theme
    dark: str  # fill accent in the dark theme
    shape: str  # outline, see widgets.canvas.shapes
    glyph: str  # one character drawn in the node header


_LOOKS: dict[str, RoleLook] = {
    "input": RoleLook("#2e7d32", "#66bb6a", "pill", "▶"),
    "output": RoleLook("#1b5e20", "#a5d6a7", "pill", "■"),
    "planner": RoleLook("#5e35b1", "#9575cd", "rounded", "☰"),
    "executor": RoleLook("#1565c0", "#64b5f6", "rect", "⚙"),
    "critic": RoleLook("#c62828", "#ef5350", "shield", "⚖"),
    "verifier": RoleLook("#ad1457", "#f06292", "hexagon", "✓"),
    "router": RoleLook("#ef6c00", "#ffb74d", "arrow", "⎇"),
    "map": RoleLook("#00838f", "#4dd0e1", "fan_out", "⇉"),
    "reduce": RoleLook("#00695c", "#4db6ac", "fan_in", "∑"),
    "vote": RoleLook("#6a1b9a", "#ba68c8", "double", "☑"),
    "memory": RoleLook("#4e342e", "#a1887f", "cylinder", "⛁"),
    "tool": RoleLook("#37474f", "#90a4ae", "cut_corner", "⚒"),
    "human_gate": RoleLook("#f9a825", "#ffd54f", "octagon", "☺"),
    "subgraph": RoleLook("#283593", "#7986cb", "tab", "⊞"),
}
_UNKNOWN = RoleLook("#757575", "#9e9e9e", "rect", "?")

# port type -> colour, shared by the node ports and the edges leaving them
_PORT_COLORS: dict[str, tuple[str, str]] = {
    "any": ("#78909c", "#b0bec5"),
    "text": ("#1e88e5", "#64b5f6"),
    "task": ("#fb8c00", "#ffb74d"),
    "plan": ("#8e24aa", "#ce93d8"),
    "list": ("#00897b", "#4db6ac"),
    "json": ("#c0a000", "#fff176"),
    "verdict": ("#e53935", "#ef9a9a"),
}


def role_look(role: str) -> RoleLook:
    return _LOOKS.get(role, _UNKNOWN)


def role_color(role: str, dark: bool) -> QColor:
    look = role_look(role)
    return QColor(look.dark if dark else look.light)


def role_glyph(role: str) -> str:
    return role_look(role).glyph


def role_shape(role: str) -> str:
    return role_look(role).shape


def port_color(port_type: str, dark: bool) -> QColor:
    light, dark_color = _PORT_COLORS.get(port_type, _PORT_COLORS["any"])
    return QColor(dark_color if dark else light)
