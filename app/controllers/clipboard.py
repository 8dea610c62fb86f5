"""The workflow clipboard: fragments as JSON under `application/x-triadic-workflow` and text/plain.

Copying puts the same JSON text under both formats, so a fragment can be pasted into another
window, or into a text editor and back. Reading prefers the private mime type and falls back to
plain text (anything that is not a workflow fragment is refused by `paste_fragment`).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QClipboard, QGuiApplication

WORKFLOW_MIME = "application/x-triadic-workflow"


def _clipboard() -> QClipboard:
    clipboard = QGuiApplication.clipboard()
    if clipboard is None:
        raise RuntimeError("no clipboard: QGuiApplication has not been created")
    return clipboard


def put_fragment_text(text: str) -> None:
    mime = QMimeData()
    mime.setData(WORKFLOW_MIME, text.encode("utf-8"))
    mime.setText(text)
    _clipboard().setMimeData(mime)


def fragment_text() -> str | None:
    """The clipboard's workflow JSON, or None when it holds nothing that could be one."""
    mime = _clipboard().mimeData()
    if mime is None:
        return None
    if mime.hasFormat(WORKFLOW_MIME):
        return bytes(mime.data(WORKFLOW_MIME).data()).decode("utf-8", errors="replace")
    text = mime.text() if mime.hasText() else ""
    return text if text.strip().startswith("{") else None
