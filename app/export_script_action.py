"""File ▸ Export as Python Script…: the open workflow written as a standalone script
(`engine.export.script`: it embeds the workflow and runs it headless with `triadic run`'s options).

The workflow exported is the document as it is in the editor (saved or not); relative paths in it
start from the document's folder. A workflow with validation errors is not exported: the error
dialog lists why. Invariant: nothing here changes the document.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QWidget

from app import dialogs

if TYPE_CHECKING:
    from app.main_window import MainWindow


def ask_script_path(parent: QWidget, suggested: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, "Export as Python script", suggested, "Python script (*.py)")
    if path and not path.endswith(".py"):
        path += ".py"
    return path or None


def export_script(window: MainWindow) -> str | None:
    """Ask where, write the script; the path written, or None (cancelled or refused, said in a dialog)."""
    from engine.export.script import ScriptExportError, workflow_script
    from engine.graph.format import dumps_workflow

    document = window.document
    source = Path(document.path) if document.path else Path.cwd() / (document.workflow.name or "workflow")
    stem = source.name.split(".")[0] or "workflow"
    target = ask_script_path(window, str(source.with_name(f"{stem}.py")))
    if target is None:
        return None
    try:
        script = workflow_script(dumps_workflow(document.workflow), source=str(source),
                                 base_dir=source.resolve().parent)
        Path(target).write_text(script, encoding="utf-8")
        os.chmod(target, 0o755)
    except ScriptExportError as exc:
        dialogs.show_error(window, "Cannot export as a script", str(exc))
        return None
    except OSError as exc:
        dialogs.show_error(window, "Cannot export as a script", f"Cannot write {target}: {exc.strerror or exc}")
        return None
    window.show_status(f"Exported {Path(target).name}: run it with python {Path(target).name} --help")
    return target
