"""`CallInspectorPanel`: one model or tool call in full — messages sent, the reply streaming in, parameters,
latency, tokens, cost, retries and errors, tool calls, the raw records; "Copy as JSON".

A `RunPanel`. `show_call(span_id)` (the slot other docks' `span_selected` connect to) picks the call;
until the person picks one it follows the call streaming now (`projection.stream_span`), staying on
each until it ends. Live, only
the text streamed since the last flush is appended to the reply (the document is re-set only when the
stream restarted or the final reply differs from what streamed); the raw JSON tree is built lazily,
and only when its tab is open.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from engine.projection import CallRow, ProjectionChanges
from widgets.call_inspector.call_text import call_json, call_record, details_html, messages_html, summary_line
from widgets.call_inspector.json_tree import JsonTreeModel
from widgets.compact_rows import compact_buttons, short_views
from widgets.elided_label import ElidedLabel
from widgets.run_panel import RunPanel
from widgets.trace.trace_format import is_dark, status_colour

PLACEHOLDER = "Select a model or tool call in the Trace to inspect it."


class CallInspectorPanel(RunPanel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.span_id: str | None = None
        self.pinned = False  # the person picked a call: stop following the streaming one
        self.title = ElidedLabel(PLACEHOLDER, self)  # a long model / node name elides instead of widening the dock
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status = QLabel(self)
        bold = QFont(self.status.font())
        bold.setBold(True)
        self.title.setFont(bold)  # one font, so the title's minimum width stays the same whatever it shows
        self.status.setMinimumWidth(QFontMetrics(bold).horizontalAdvance("● running") + 4)  # steady: the widest state
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.copy_button = QPushButton("Copy as JSON", self)
        self.copy_button.setEnabled(False)
        compact_buttons(self.copy_button)
        self.messages = QTextBrowser(self)
        self.reply_label = QLabel("Reply", self)
        self.reply = QPlainTextEdit(self)
        self.reply.setReadOnly(True)
        self.details = QTextBrowser(self)
        self.json_model = JsonTreeModel(self)
        self.json_view = QTreeView(self)
        self.json_view.setUniformRowHeights(True)
        self.json_view.setModel(self.json_model)
        json_header = self.json_view.header()
        json_header.setStretchLastSection(False)
        json_header.resizeSection(0, 220)
        json_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        json_header.resizeSection(2, 70)
        self._json_for: str | None = None
        short_views(self.messages, self.reply, self.details, self.json_view)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.messages)
        reply_box = QWidget(split)
        reply_layout = QVBoxLayout(reply_box)
        reply_layout.setContentsMargins(0, 0, 0, 0)
        reply_layout.addWidget(self.reply_label)
        reply_layout.addWidget(self.reply, 1)
        split.addWidget(reply_box)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(split, "Conversation")
        self.tabs.addTab(self.details, "Details")
        self.tabs.addTab(self.json_view, "JSON")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.status)
        head.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(head)
        layout.addWidget(self.summary)
        layout.addWidget(self.tabs, 1)
        self._shown_len = 0
        self._shown_restarts = 0
        self._shown_finished = False
        self.copy_button.clicked.connect(self._on_copy_button_clicked)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)

    # -- picking a call ---------------------------------------------------------------------------------
    def show_call(self, span_id: str) -> None:
        """Show call `span_id` (a model or tool call's span); other spans are ignored."""
        if self.projection is None or span_id not in self.projection.calls:
            return
        self.pinned = True
        self._show(span_id)

    def call(self) -> CallRow | None:
        if self.projection is None or self.span_id is None:
            return None
        return self.projection.calls.get(self.span_id)

    # -- RunPanel -------------------------------------------------------------------------------------
    def rebuild(self) -> None:
        keep = self.span_id if self.pinned and self.projection is not None and \
            self.span_id in self.projection.calls else None
        self.pinned = keep is not None
        self._show(keep or self._followed())

    def update_from(self, changes: ProjectionChanges) -> None:
        if self.projection is None:
            return
        current = self.call()
        if not self.pinned and (current is None or current.finished):  # stays on a call until it ends
            followed = self._followed()
            if followed != self.span_id and followed is not None:
                self._show(followed)
                return
        if self.span_id is not None and (self.span_id in changes.calls_changed or self.span_id in changes.calls_added):
            self._refresh()

    def set_node_filter(self, node_id: str | None) -> None:
        self.node_filter = node_id  # the call shown stays: it was picked, whatever the node filter

    # -- showing ------------------------------------------------------------------------------------------
    def _followed(self) -> str | None:
        p = self.projection
        if p is None:
            return None
        return p.stream_span or self.span_id

    def _show(self, span_id: str | None) -> None:
        self.span_id = span_id
        self._json_for = None
        call = self.call()
        self.copy_button.setEnabled(call is not None)
        if call is None:
            self.title.setText(PLACEHOLDER)
            for label in (self.status, self.summary):
                label.clear()
            for widget in (self.messages, self.details):
                widget.clear()
            self.reply.clear()
            self.reply_label.setText("Reply")
            self.json_model.set_value({})
            return
        self.title.setText(f"{'model' if call.kind == 'llm' else 'tool'} · {call.name} — node {call.node_id}")
        self.messages.setHtml(messages_html(call, is_dark(self.palette())))
        self._shown_len, self._shown_restarts, self._shown_finished = 0, -1, False
        self._refresh()

    def _refresh(self) -> None:
        call = self.call()
        if call is None:
            return
        state = "running" if not call.finished else ("error" if call.error else "ok")
        colour = status_colour(state, is_dark(self.palette())).name()
        self.status.setText(f'<span style="color:{colour};font-weight:bold">● {state}</span>')
        self.summary.setText(summary_line(call))
        self._refresh_reply(call)
        if call.finished != self._shown_finished or call.retries or call.error:
            self.details.setHtml(details_html(call))
        self._shown_finished = call.finished
        if self.tabs.currentWidget() is self.json_view and call.finished:
            self._fill_json()

    def _refresh_reply(self, call: CallRow) -> None:
        if call.kind == "tool":
            self.reply_label.setText("<b>Result</b>" if call.error is None else "<b>Error</b>")
            if call.error is not None:
                text = call.error
            elif not call.finished:
                text = ""
            else:
                text = call.result if isinstance(call.result, str) else json.dumps(
                    call.result, indent=2, ensure_ascii=False, default=str)
            if text != self.reply.toPlainText():
                self.reply.setPlainText(text)
            return
        text = call.text
        label = "<b>Reply</b>" + ("" if call.finished else " — streaming…")
        if call.restarts:
            label += f"  (stream restarted: attempt {call.restarts + 1})"
        self.reply_label.setText(label)
        restarted = call.restarts != self._shown_restarts
        if restarted or len(text) < self._shown_len or (call.finished and not self._shown_finished):
            if restarted or self.reply.document().characterCount() - 1 != len(text) \
                    or self.reply.toPlainText() != text:
                self.reply.setPlainText(text)
        elif len(text) > self._shown_len:
            bar = self.reply.verticalScrollBar()
            at_bottom = bar.value() >= bar.maximum() - 2
            cursor = QTextCursor(self.reply.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(text[self._shown_len:])
            if at_bottom:
                bar.setValue(bar.maximum())
        self._shown_len, self._shown_restarts = len(text), call.restarts

    def _fill_json(self) -> None:
        call = self.call()
        if call is not None and self._json_for != call.span_id + str(call.seq):
            self._json_for = call.span_id + str(call.seq)
            self.json_model.set_value(call_record(call))
            self.json_view.expandToDepth(0)

    # -- slots ------------------------------------------------------------------------------------------
    def _on_copy_button_clicked(self) -> None:
        call = self.call()
        if call is not None:
            QGuiApplication.clipboard().setText(call_json(call))

    def _on_tabs_current_changed(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.json_view:
            self._fill_json()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and self.call() is not None:
            self._show(self.span_id)
        super().changeEvent(event)
