"""Light and dark themes: a QPalette (resources/themes/<name>.json) plus a style sheet (<name>.qss).

Invariant: applying a theme replaces the previous one completely (Fusion style, palette, sheet),
so switching back and forth is lossless; an unknown name falls back to "light".
"""

from __future__ import annotations

import json

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from app.resource_paths import theme_file
from app.settings_store import THEMES


def palette_for(name: str) -> QPalette:
    palette = QPalette()
    path = theme_file(f"{name}.json")
    colors = json.loads(path.read_text(encoding="utf-8")) if path else {}
    for role_name, color in colors.items():
        role = getattr(QPalette.ColorRole, role_name, None)
        if role is not None:
            palette.setColor(role, QColor(color))
    muted = QColor(colors.get("PlaceholderText", "#888888"))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, muted)
    return palette


def style_sheet_for(name: str) -> str:
    path = theme_file(f"{name}.qss")
    return path.read_text(encoding="utf-8") if path else ""


def apply_theme(app: QApplication, name: str) -> str:
    """Apply a theme to the whole application; returns the name actually applied."""
    name = name if name in THEMES else "light"
    app.setStyle("Fusion")
    app.setPalette(palette_for(name))
    app.setStyleSheet(style_sheet_for(name))
    app.setProperty("triadic_theme", name)
    return name
