"""`MissingKeysDialog`: before a run, the keys its models need and do not have — store each one here.

Given the preflight problems (`engine.runtime.preflight.missing_keys(plan, overrides, gateway)`: one
line per provider naming the models, the nodes and the variable), it shows each line with a masked
field and "Store in keyring". After a key is stored it asks `recheck()` again (the same preflight, in
the executor) and says whether the run can start now; `keys_stored()` is emitted after each store and
recheck, and "Start run" (accept) is enabled once nothing is missing.

Invariants: opened with `open()`, never `exec()` inside a coroutine; a key typed here goes only to
the keyring, and its field is cleared once stored; a line whose provider it cannot tell (an unusual
problem) is shown without a field, and the run cannot start until `recheck()` no longer reports it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from widgets.keys import key_access as access

Recheck = Callable[[], list[str]]


class MissingKeysDialog(QDialog):
    keys_stored = Signal()

    def __init__(self, problems: list[str], recheck: Recheck, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keys needed for this run")
        self.setMinimumWidth(600)
        self.problems = list(problems)
        self._recheck = recheck
        self.fields: dict[str, QLineEdit] = {}
        self.store_buttons: dict[str, QPushButton] = {}
        intro = QLabel("This run calls models whose API key is not set. Store each key in the OS keyring "
                       "(it never reaches files, the trace store or logs), or set the variable and start again.",
                       self)
        intro.setWordWrap(True)
        grid = QGridLayout()
        for row, line in enumerate(self.problems):
            label = QLabel(_readable(line), self)
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.RichText)
            grid.addWidget(label, row * 2, 0, 1, 2)
            found = access.problem_provider(line)
            if found is None:
                continue
            provider, env_var = found
            field = QLineEdit(self)
            field.setEchoMode(QLineEdit.EchoMode.Password)
            field.setPlaceholderText(f"{provider} key ({env_var})")
            button = QPushButton("Store in keyring", self)
            button.setEnabled(False)
            field.textChanged.connect(lambda text, b=button: b.setEnabled(bool(text.strip())))
            button.clicked.connect(lambda _checked=False, p=provider: self._on_store_clicked(p))
            grid.addWidget(field, row * 2 + 1, 0)
            grid.addWidget(button, row * 2 + 1, 1)
            self.fields[provider], self.store_buttons[provider] = field, button
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.start_button = self.buttons.addButton("Start run", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(grid)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self._show_problems(self.problems)

    @property
    def ready(self) -> bool:
        """Nothing keeps the run from starting any more (as of the last recheck)."""
        return not self.problems

    def _on_store_clicked(self, provider: str) -> None:
        field = self.fields[provider]
        key = field.text().strip()
        if key:
            asyncio.get_event_loop().create_task(self._store(provider, key))

    async def _store(self, provider: str, key: str) -> None:
        loop = asyncio.get_running_loop()
        self.store_buttons[provider].setEnabled(False)
        try:
            await loop.run_in_executor(None, lambda: access.store_key(provider, key))
        except Exception as exc:  # no keyring backend here: say so, keep the field
            if not isValid(self):
                return
            self.status.setText(f"The OS keyring refused the {provider} key: {type(exc).__name__}: {exc}")
            self.store_buttons[provider].setEnabled(True)
            return
        if not isValid(self):
            return
        self.fields[provider].clear()
        self.fields[provider].setPlaceholderText(f"{provider} key stored in the OS keyring")
        problems: list[str] = await loop.run_in_executor(None, self._recheck)
        if not isValid(self):
            return
        self._show_problems(problems)
        self.keys_stored.emit()

    def _show_problems(self, problems: list[str]) -> None:
        self.problems = list(problems)
        self.start_button.setEnabled(self.ready)
        if self.ready:
            self.status.setText("Every key this run needs is there: the run can start now.")
            return
        still = sorted({found[0] for line in self.problems if (found := access.problem_provider(line))})
        what = ", ".join(still) if still else f"{len(self.problems)} problem(s)"
        self.status.setText(f"The run cannot start yet: still missing {what}.")



def _readable(line: str) -> str:
    """A preflight line as two lines of rich text: the models and nodes in bold, then what is missing."""
    head, sep, rest = line.partition("): ")
    if not sep:
        return escape(line)
    return f"<b>{escape(head)})</b><br>{escape(rest)}"
