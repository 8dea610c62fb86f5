"""A compound undo command that owns its children in Python.

PySide6 does not keep the Python wrappers of `QUndoCommand(text, parent)` children alive (the
stack then calls into freed objects and the process crashes), so compound edits hold their
children here instead: `redo` runs them in order, `undo` in reverse order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from PySide6.QtGui import QUndoCommand

C = TypeVar("C", bound=QUndoCommand)


class MacroCommand(QUndoCommand):
    def __init__(self, text: str, children: Iterable[QUndoCommand] = ()) -> None:
        super().__init__(text)
        self.children: list[QUndoCommand] = list(children)

    def add(self, child: C) -> C:
        self.children.append(child)
        return child

    def redo(self) -> None:
        for child in self.children:
            child.redo()

    def undo(self) -> None:
        for child in reversed(self.children):
            child.undo()
