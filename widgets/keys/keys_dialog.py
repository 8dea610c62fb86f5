"""`KeysDialog` (Settings → Models & keys): where each provider's and server's key comes from, storing
one, and testing it.

The table lists every provider that needs a key with its variable, then every OpenAI-compatible server
with a key of its own (a node's "Server address" gets only that key, never a provider's), and where each
key comes from now (environment variable / OS keyring / missing) — never the key. "Add server" puts a
server address in the table. For the selected row: a masked field to enter a key, "Store in keyring",
"Remove from keyring", and "Test this key" (one call of a model the person picks, at most one token, to
the provider's API or to that server) reporting OK or the error, scrubbed of keys. Keyring and network
work runs in the loop's executor.

Invariants: opened with `open()` (never `exec()` inside a coroutine); the typed key lives only in the
masked field until it is stored or tested, and the field is cleared once stored; `keys_changed()` is
emitted after a store or a removal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from widgets.keys import key_access as access
from widgets.keys.key_table import KeyTableModel


class KeysDialog(QDialog):
    keys_changed = Signal()
    test_finished = Signal(bool, str)  # ok, message (scrubbed)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Models & keys")
        self.resize(760, 520)
        self.model = KeyTableModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.key_edit = QLineEdit(self)
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setPlaceholderText("Paste a key (hidden)")
        self.store_button = QPushButton("Store in keyring", self)
        self.remove_button = QPushButton("Remove from keyring", self)
        self.model_combo = QComboBox(self)
        self.model_combo.setEditable(True)
        self.server_edit = QLineEdit(self)
        self.server_edit.setPlaceholderText("An OpenAI-compatible server, e.g. https://llm.example.com/v1")
        self.add_server_button = QPushButton("Add server", self)
        self._servers: list[str] = []  # addresses added here that may have no key yet
        self.test_button = QPushButton("Test this key", self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.store_button)
        key_row.addWidget(self.remove_button)
        test_row = QHBoxLayout()
        test_row.addWidget(self.model_combo, 1)
        test_row.addWidget(self.test_button)
        server_row = QHBoxLayout()
        server_row.addWidget(self.server_edit, 1)
        server_row.addWidget(self.add_server_button)
        form = QFormLayout()
        self.provider_label = QLabel(self)
        form.addRow("Selected:", self.provider_label)
        form.addRow("Key:", key_row)
        form.addRow("Test with model:", test_row)
        form.addRow("New server:", server_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        note = QLabel("Keys are read from the environment first, then the OS keyring (service \"triadic\"). "
                      "They never reach workflow files, the trace store, traces or logs.", self)
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.key_edit.textChanged.connect(self._on_key_edited)
        self.store_button.clicked.connect(self._on_store_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.test_button.clicked.connect(self._on_test_clicked)
        self.add_server_button.clicked.connect(self._on_add_server_clicked)
        self.server_edit.returnPressed.connect(self._on_add_server_clicked)
        self._busy = False
        self._loads = 0  # the newest listing wins: an older one that answers later is dropped
        self._update_buttons()
        self.refresh()

    # -- public ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Look again where each provider's key comes from (in the executor)."""
        self._spawn(self._load_states())

    def select_target(self, target: str) -> None:
        """Select a provider name or a (normalized) server address."""
        row = self.model.row_of(target)
        if row >= 0:
            self.table.selectRow(row)

    def selected_state(self) -> access.KeyState | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.state(rows[0].row()) if rows else None

    # -- slots -----------------------------------------------------------------------------------
    def _on_selection_changed(self, *_args: Any) -> None:
        state = self.selected_state()
        label = "(pick a provider or server above)" if state is None else f"{state.kind} {state.target}"
        self.provider_label.setText(label)
        self.model_combo.clear()
        if state is not None:
            default = (access.SERVER_TEST_MODEL if state.kind == access.SERVER
                       else access.DEFAULT_TEST_MODELS.get(state.target, f"{state.target}/"))
            self.model_combo.addItem(default)
        self.key_edit.clear()
        self.status.clear()
        self._update_buttons()

    def _on_key_edited(self, _text: str) -> None:
        self._update_buttons()

    def _on_add_server_clicked(self) -> None:
        try:
            address, warning = access.server_address(self.server_edit.text())
        except ValueError as exc:
            self.status.setText(str(exc))
            return
        if address not in self._servers:
            self._servers.append(address)
        self.server_edit.clear()
        note = warning or f"Added {address}: paste its key and store it, or test it without one."
        self.status.setText(note)
        self._spawn(self._load_states(select=address, note=note))

    def _on_store_clicked(self) -> None:
        state, key = self.selected_state(), self.key_edit.text().strip()
        if state is not None and key:
            self._spawn(self._work(lambda: access.store_key(state.target, key), f"Stored the key of "
                                   f"{state.target} in the OS keyring.", changed=True, clear_key=True))

    def _on_remove_clicked(self) -> None:
        state = self.selected_state()
        if state is not None:
            self._spawn(self._work(lambda: access.delete_key(state.target), f"Removed the key of {state.target} "
                                   "from the OS keyring.", changed=True))

    def _on_test_clicked(self) -> None:
        state, model = self.selected_state(), self.model_combo.currentText().strip()
        if state is not None and model:
            key = self.key_edit.text().strip() or None
            self._spawn(self._test(state, model, key))

    # -- work in the executor --------------------------------------------------------------------
    def _spawn(self, coroutine: Any) -> None:
        asyncio.get_event_loop().create_task(coroutine)

    async def _run(self, work: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, work)

    async def _load_states(self, select: str | None = None, note: str = "") -> None:
        selected = select or (state.target if (state := self.selected_state()) else None)
        servers = list(self._servers)
        self._loads += 1
        mine = self._loads
        states, trouble = await self._run(lambda: (access.key_states(servers), access.keyring_problem()))
        if not isValid(self) or mine != self._loads:  # closed while the keyring answered, or listed again since
            return
        self.model.set_states(states)
        if selected:
            self.select_target(selected)  # clears the status line
        if note:
            self.status.setText(note)
        if trouble and not self.status.text():
            self.status.setText(f"Keys cannot be stored here: {trouble}.")
        self._update_buttons()

    async def _work(self, work: Callable[[], Any], done: str, *, changed: bool, clear_key: bool = False) -> None:
        self._set_busy(True)
        try:
            await self._run(work)
            if not isValid(self):
                return
            self.status.setText(done)
            if clear_key:
                self.key_edit.clear()
        except Exception as exc:  # no keyring backend, locked keychain (KeyStoreError says which): never raised
            self.status.setText(f"The key was not stored: {exc}")
            changed = False
        finally:
            if isValid(self):
                self._set_busy(False)
        if not isValid(self):
            return
        await self._load_states()
        if changed:
            self.keys_changed.emit()

    async def _test(self, state: access.KeyState, model: str, key: str | None) -> None:
        self._set_busy(True)
        self.status.setText(f"Testing {model}" + (f" at {state.target}…" if state.kind == access.SERVER else "…"))
        try:
            ok, message = await self._run(lambda: access.try_key(model, state.target, state.kind, key))
        finally:
            if isValid(self):
                self._set_busy(False)
        if not isValid(self):
            return
        self.status.setText(("✔ " if ok else "✘ ") + message)
        self.test_finished.emit(ok, message)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._update_buttons()

    def _update_buttons(self) -> None:
        state = self.selected_state()
        idle = state is not None and not self._busy
        self.store_button.setEnabled(idle and bool(self.key_edit.text().strip()))
        self.remove_button.setEnabled(idle and state is not None and state.source == access.KEYRING)
        self.test_button.setEnabled(idle)
