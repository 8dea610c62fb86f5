"""The modal questions the window asks; module-level functions so tests can replace them.

Invariant: these only ask and report; they never change the document or touch files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from engine.graph.problems import WorkflowFileError

SaveChoice = Literal["save", "discard", "cancel"]
FILE_FILTER = "Triadic workflows (*.triadic.json *.json);;All files (*)"


def ask_save_changes(parent: QWidget, name: str) -> SaveChoice:
    box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes",
                      f"“{name}” has unsaved changes. Save them first?",
                      QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                      | QMessageBox.StandardButton.Cancel, parent)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return "save"
    if answer == QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


def ask_open_path(parent: QWidget, folder: str) -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, "Open workflow", folder, FILE_FILTER)
    return path or None


def ask_save_path(parent: QWidget, suggested: str) -> str | None:
    path, _ = QFileDialog.getSaveFileName(parent, "Save workflow as", suggested, FILE_FILTER)
    if path and not path.endswith(".json"):
        path += ".triadic.json"
    return path or None


def problems_text(error: WorkflowFileError) -> str:
    lines = []
    for p in error.problems:
        where = ", ".join(x for x in (f"node {p.node_id}" if p.node_id else "",
                                      f"edge {p.edge_id}" if p.edge_id else "", p.field or "") if x)
        lines.append(f"• {p.message}" + (f"  [{where}]" if where else ""))
    return "\n".join(lines)


def show_file_problems(parent: QWidget, error: WorkflowFileError) -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, f"Cannot {error.action} workflow",
                      f"Cannot {error.action} {error.source}. The file was left untouched and the "
                      f"current workflow stays open.", QMessageBox.StandardButton.Ok, parent)
    box.setDetailedText(problems_text(error))
    box.setInformativeText(problems_text(error)[:1500])
    box.exec()


def show_error(parent: QWidget, title: str, message: str) -> None:
    QMessageBox.critical(parent, title, message)


def ask_to_go_on(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str, accept: str, name: str,
                 on_accept: Callable[[], object]) -> QMessageBox:
    """A non-modal question with Cancel and one accepting button (`accept`); `on_accept` runs only when that
    button is pressed. The box (object name `name`) is deleted when it closes."""
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    button = box.addButton(accept, QMessageBox.ButtonRole.AcceptRole)
    box.setObjectName(name)
    box.buttonClicked.connect(lambda clicked: on_accept() if clicked is button else None)
    box.finished.connect(box.deleteLater)
    box.open()
    return box

