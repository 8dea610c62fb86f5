"""`MemoryValuePane`: one memory write or read in full — its value as text or indented JSON, its change
from the key's previous write (`DiffPane`) — and, for memory that outlives the run (workflow and
global scope), the value the store holds now.

The value is formatted only when a row is selected (never for rows merely listed), and cut at
`MAX_CHARS` (the rest is counted, not shown). With a store (`set_store`) the pane asks it, in a worker
thread, for the key's latest admitted write across all runs and says whether it is still the value
this run left, or which later run changed it to what.

Invariant: a store answer that arrives after the selection moved on is dropped (`Background` ticket).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from engine import events as ev
from engine.projection import RunProjection
from engine.projection.judged import artifact_text, gate_verdict_of, previous_write
from widgets.memory_view.merge import MemoryEvent
from widgets.verdicts.background import Background
from widgets.verdicts.diff_pane import DiffPane
from widgets.verdicts.look import look_for, mono_font, seconds

MAX_CHARS = 500_000
LASTING_SCOPES = ("workflow", "global")


class MemoryValuePane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store: Any = None
        self.shown: MemoryEvent | None = None
        self._run_entry: MemoryEvent | None = None
        self._run_id = ""
        self._projection: RunProjection | None = None
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.value = QPlainTextEdit(self)
        self.value.setReadOnly(True)
        self.value.setFont(mono_font())
        self.store_note = QLabel(self)
        self.store_note.setWordWrap(True)
        self.store_value = QPlainTextEdit(self)
        self.store_value.setReadOnly(True)
        self.store_value.setFont(mono_font())
        self.store_value.setMaximumHeight(110)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        self.change = DiffPane("Whole value", self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.value, "Value")
        self.tabs.addTab(self.change, "Change from the previous write")
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.store_note)
        layout.addWidget(self.store_value)
        self.background = Background(self)
        self.background.finished.connect(self._on_store_answered)
        self.show_event(None, None)

    def set_store(self, store: Any) -> None:
        """A `TraceStore` (or None) to compare lasting memory with what the store holds now."""
        self.store = store
        if self.shown is not None:
            self.show_event(self._projection, self.shown, self._run_entry)

    def show_event(self, p: RunProjection | None, e: MemoryEvent | None, run_entry: MemoryEvent | None = None) -> None:
        """Show `e`; `run_entry` is the key's entry as the run left it (its last admitted write, or a read)."""
        self.shown, self._run_entry = e, run_entry
        self._projection = p
        self._run_id = p.run_id if p is not None else ""
        self.background.latest += 1
        self.store_note.hide()
        self.store_value.hide()
        if p is None or e is None:
            self.header.setText("<i>Select a key or a write to see its whole value.</i>")
            self.value.clear()
            self.change.clear()
            return
        self.header.setText(self._header_html(p, e))
        text = artifact_text(e.value)
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS] + f"\n… {len(text) - MAX_CHARS:,} more characters not shown"
        self.value.setPlainText(text if e.value is not None else "(no value)")
        self._compare(p, e)
        if self.store is not None and e.scope in LASTING_SCOPES:
            scope_id = p.workflow_id if e.scope == "workflow" else ""
            self.store_note.setText("<i>Asking the store for its current value…</i>")
            self.store_note.show()
            self.background.submit(_latest_admitted, self.store, e.memory, e.scope, scope_id, e.key)

    def _compare(self, p: RunProjection, e: MemoryEvent) -> None:
        if isinstance(e, ev.MemoryRead):
            self.change.clear("A read: it changed nothing.")
            return
        before = previous_write(p, e)
        if before is None:
            self.change.clear("The first write of this key in the run.")
            return
        row = p.nodes.get(before.node_id)
        who = row.title if row is not None and row.title else before.node_id
        self.change.compare(artifact_text(before.value), artifact_text(e.value),
                            f"the write of {who} at {seconds(before.ts)} (seq {before.seq})")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.shown is not None and self._projection is not None:
            self.header.setText(self._header_html(self._projection, self.shown))  # a theme switch: recolour

    def _on_store_answered(self, ticket: int, entry: Any) -> None:
        if ticket != self.background.latest or self.shown is None:
            return
        if isinstance(entry, BaseException):
            self.store_note.setText(f"The store could not be read: {html.escape(str(entry))}")
            return
        if entry is None:
            self.store_note.setText(f"The store holds no value for this key ({self.shown.scope} scope).")
            return
        mine = self._run_entry
        scope = self.shown.scope
        if isinstance(mine, ev.MemoryWritten) and entry.run_id == self._run_id and entry.seq == mine.seq:
            self.store_note.setText(f"The store still holds the value this run left ({scope} scope).")
            return
        if mine is not None and entry.value == mine.value:
            self.store_note.setText(f"The store holds the same value as this run saw ({scope} scope), last "
                                    f"written by run {html.escape(entry.run_id[:8])} (seq {entry.seq}).")
            return
        self.store_note.setText(f"The store now holds another value ({scope} scope), written by "
                                f"{html.escape(entry.node_id)} in run {html.escape(entry.run_id[:8])} "
                                f"(seq {entry.seq}):")
        self.store_value.setPlainText(artifact_text(entry.value)[:MAX_CHARS])
        self.store_value.show()

    def _header_html(self, p: RunProjection, e: MemoryEvent) -> str:
        look = look_for(self)
        row = p.nodes.get(e.node_id)
        who = html.escape(row.title if row is not None and row.title else e.node_id)
        where = f"<b>{html.escape(e.key)}</b> in {html.escape(e.memory)} · {html.escape(e.scope)} scope"
        if isinstance(e, ev.MemoryRead):
            return f"{where} — read by <b>{who}</b> at {seconds(e.ts)} (seq {e.seq})"
        colour = (look.approve if e.admitted else look.reject).name()
        word = "written" if e.admitted else "refused"
        gate = ""
        if e.reason:
            verdict = gate_verdict_of(p, e)
            by = ""
            if verdict is not None:
                judge = p.nodes.get(verdict.node_id)
                by = f" — by the verdict of {html.escape(judge.title if judge else verdict.node_id)} (seq {verdict.seq})"
            gate = f"<br>gate: {html.escape(e.reason)}{by}"
        return (f'{where} — <b style="color:{colour}">{word}</b> by <b>{who}</b> at {seconds(e.ts)} '
                f"(seq {e.seq}){gate}")


def _latest_admitted(store: Any, memory: str, scope: str, scope_id: str, key: str) -> Any:
    admitted = [entry for entry in store.memory_history(memory, scope, scope_id, key=key) if entry.admitted]
    return admitted[-1] if admitted else None
