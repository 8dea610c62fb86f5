"""`ComparePanel`: how two runs differ — built from an `engine.compare.RunDiff` (computed off the GUI
thread by the caller; this panel only shows it).

Top: the two runs, their statuses, the run's token / cost / duration deltas, and the first event
where they diverge as a link (`event_requested(run_id, seq)`: the window opens run A and selects that
event in the Events dock). Left: the nodes — outputs changed, verdicts changed, ran in A only / B only
— each with its token / cost / duration delta. Right: the selected node's outputs side by side
(A left, B right, differing lines tinted) and its verdict changes.

Invariant: `show_diff` replaces everything; nothing here reads the store or computes a diff.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from widgets.compare.side_by_side import html, split

if TYPE_CHECKING:
    from engine.compare import NodeDelta, RunDiff

NODE_ROLE = Qt.ItemDataRole.UserRole + 1


def delta_text(d: NodeDelta) -> str:
    """B − A as "+120 tokens, −$0.000350, +1.25 s" (`engine.compare.delta_text`)."""
    from engine.compare.delta_text import signed, signed_cost  # its package loads the store: not at start-up

    duration = "" if d.duration_s is None else f", {signed(d.duration_s, 2)} s"
    return f"{signed(d.tokens)} tokens, {signed_cost(d.cost_usd, prefix='$')}" + duration


class ComparePanel(QWidget):
    event_requested = Signal(str, int)  # run id, seq: select that event in the Events dock

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff: RunDiff | None = None
        self.summary = QLabel("Pick two runs in the Runs dock (or a replay or fork) and choose Compare.", self)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.summary.linkActivated.connect(self._on_link_activated)
        self.nodes = QListWidget(self)
        self.left = QTextEdit(self)
        self.right = QTextEdit(self)
        for side in (self.left, self.right):
            side.setReadOnly(True)
            side.setLineWrapMode(QTextEdit.LineWrapMode.NoWrap)
        self.left.verticalScrollBar().valueChanged.connect(self._on_left_scrolled)
        self.right.verticalScrollBar().valueChanged.connect(self._on_right_scrolled)
        self.verdicts = QLabel(self)
        self.verdicts.setWordWrap(True)
        texts = QSplitter(Qt.Orientation.Horizontal, self)
        texts.addWidget(self.left)
        texts.addWidget(self.right)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(texts, 1)
        right_layout.addWidget(self.verdicts)
        split_view = QSplitter(Qt.Orientation.Horizontal, self)
        split_view.addWidget(self.nodes)
        split_view.addWidget(right)
        split_view.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(split_view, 1)
        self.nodes.currentItemChanged.connect(self._on_node_changed)

    def show_message(self, text: str) -> None:
        self.diff = None
        self.summary.setText(text)
        self.nodes.clear()
        self.left.clear()
        self.right.clear()
        self.verdicts.clear()

    def show_diff(self, diff: RunDiff) -> None:
        self.diff = diff
        a, b = diff.run_a[:8], diff.run_b[:8]
        t = diff.totals
        lines = [f"<b>A</b> {a} ({diff.status[0]}) &nbsp;vs&nbsp; <b>B</b> {b} ({diff.status[1]}): "
                 + ("<b>no difference</b>" if diff.same else f"B − A: {delta_text(t)}")]
        d = diff.first_divergence
        if d is not None:
            seq = d.seq_a if d.seq_a is not None else d.seq_b
            run = diff.run_a if d.seq_a is not None else diff.run_b
            lines.append(f'First divergence in {d.lane}: <a href="{run}:{seq}">event {seq} in '
                         f'{"A" if run == diff.run_a else "B"}</a>: '
                         + _escape(_short(d.detail) if d.detail else f"{_short(d.event_a)} → {_short(d.event_b)}"))
        self.summary.setText("<br>".join(lines))
        if d is not None:
            self.summary.setToolTip(f"A: {d.event_a}\nB: {d.event_b}")
        self.nodes.clear()
        deltas = {n.node_id: n for n in diff.deltas}
        changed_verdicts = {v.subject for v in diff.verdicts} | {v.judge for v in diff.verdicts}
        names = list(diff.output_diffs) + [n for n in deltas if n not in diff.output_diffs]
        for node in [*names, *diff.only_a, *diff.only_b]:
            marks = []
            if node in diff.output_diffs:
                marks.append("output changed")
            if node in changed_verdicts:
                marks.append("verdict changed")
            if node in diff.only_a:
                marks.append("ran in A only")
            if node in diff.only_b:
                marks.append("ran in B only")
            label = node + (f"  — {', '.join(marks)}" if marks else "  — same output")
            item = QListWidgetItem(label)
            item.setData(NODE_ROLE, node)
            if node in deltas:
                item.setToolTip(f"B − A: {delta_text(deltas[node])}")
            self.nodes.addItem(item)
        self.left.clear()
        self.right.clear()
        self.verdicts.clear()
        if self.nodes.count():
            self.nodes.setCurrentRow(0)

    def _on_node_changed(self, current: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        diff = self.diff
        if diff is None or current is None:
            return
        node = str(current.data(NODE_ROLE))
        rows = split(diff.output_diffs.get(node, []))
        if not rows:
            rows = [("(the same output in both runs)", "(the same output in both runs)", "same")]
        self.left.setHtml(html(rows, 0))
        self.right.setHtml(html(rows, 1))
        changes = [v for v in diff.verdicts if node in (v.judge, v.subject)]
        self.verdicts.setText("<br>".join(f"Verdict of {_escape(v.judge)} on {_escape(v.subject)}, round {v.round}: "
                                          f"{_escape(v.before)} → {_escape(v.after)}" for v in changes))

    def _on_left_scrolled(self, value: int) -> None:  # the two sides scroll together
        if isValid(self.right):
            self.right.verticalScrollBar().setValue(value)

    def _on_right_scrolled(self, value: int) -> None:
        if isValid(self.left):
            self.left.verticalScrollBar().setValue(value)

    def _on_link_activated(self, link: str) -> None:
        run_id, _, seq = link.rpartition(":")
        if run_id and seq.isdigit():
            self.event_requested.emit(run_id, int(seq))


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(text: str) -> str:
    import html as html_lib

    return html_lib.escape(text)
