"""Render resources/icons/triadic.svg to the PNG sizes desktops ask for (run after editing the SVG).

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py
Writes resources/icons/triadic-<size>.png (16 … 512); the PNGs are committed, so a build needs no
SVG renderer. Uses Qt's own SVG renderer (QtSvg, part of PySide6-Essentials).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def main() -> None:
    app = QGuiApplication([])
    renderer = QSvgRenderer(str(ICONS / "triadic.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"triadic-{size}.png"))
    del app


if __name__ == "__main__":
    main()
