"""`VerdictDetails`: one verdict in full — who judged what, how, why — the artifact judged and its diff.

Shows the judge and subject (links: `node_clicked(node_id)`), the judge's span (`span_clicked`),
decision, score, round, model, every reason and every claim with whether it held; a tab with the
artifact judged (`projection.artifacts[artifact_seq]`, as text or indented JSON) and a tab with its
change from the previous round (`engine.projection.judged.previous_artifact`), unified or side by
side, hunks or the whole artifact.

Invariant: large diffs are computed in a worker thread and only the one for the verdict shown now is
displayed (`DiffPane`); the artifact's text is put in its tab only when the tab is opened.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTabWidget, QTextBrowser, QVBoxLayout, QWidget

from engine import events as ev
from engine.projection import RunProjection
from engine.projection.judged import artifact_text, judged_artifact, previous_artifact
from widgets.verdicts.diff_pane import DiffPane
from widgets.verdicts.look import look_for, mono_font, seconds


class VerdictDetails(QWidget):
    node_clicked = Signal(str)
    span_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.verdict: ev.VerdictIssued | None = None
        self._projection: RunProjection | None = None
        self._artifact_text = ""  # put in the artifact tab when it is shown (20,000 lines cost ~50 ms)
        self._artifact_set = True
        self.header = QLabel(self)
        self.header.setWordWrap(True)
        self.header.linkActivated.connect(self._on_header_link_activated)
        self.reasons = QTextBrowser(self)
        self.reasons.setOpenLinks(False)
        self.artifact = QPlainTextEdit(self)
        self.artifact.setReadOnly(True)
        self.artifact.setFont(mono_font())
        self.diff_pane = DiffPane("Whole artifact", self)
        self.diff, self.mode, self.whole = self.diff_pane.view, self.diff_pane.mode, self.diff_pane.whole
        self.diff_status = self.diff_pane.status
        self.diff_shown = self.diff_pane.diff_shown  # the TextDiff now on screen
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.diff_pane, "Change from previous round")
        self.tabs.addTab(self.artifact, "Artifact judged")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.reasons, 1)
        layout.addWidget(self.tabs, 3)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.show_verdict(None, None)

    # -- showing ----------------------------------------------------------------------------------
    def show_verdict(self, projection: RunProjection | None, verdict: ev.VerdictIssued | None) -> None:
        self.verdict, self._projection = verdict, projection
        if projection is None or verdict is None:
            self.header.setText("<i>Select a verdict to see its reasons, claims and the artifact it judged.</i>")
            self.reasons.clear()
            self.artifact.clear()
            self._artifact_text, self._artifact_set = "", True
            self.diff_pane.clear()
            return
        self.header.setText(self._header_html(projection, verdict))
        self.reasons.setHtml(self._reasons_html(verdict))
        judged, before = judged_artifact(projection, verdict), previous_artifact(projection, verdict)
        new_text = artifact_text(judged.value) if judged is not None else ""
        self._artifact_text = new_text if judged is not None else "(the verdict names no artifact)"
        self._artifact_set = False
        self._on_tab_changed(self.tabs.currentIndex())
        if judged is None or before is None:
            self.diff_pane.clear("First round: no earlier artifact to compare." if judged is not None
                                 else "The verdict names no artifact.")
            return
        subject = projection.nodes.get(before.node_id)
        title = subject.title if subject is not None and subject.title else before.node_id
        self.diff_pane.compare(artifact_text(before.value), new_text,
                               f"round {before.round} of {title} ({before.port}, seq {before.seq})")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.verdict is not None and self._projection is not None:
            self.header.setText(self._header_html(self._projection, self.verdict))  # a theme switch: recolour
            self.reasons.setHtml(self._reasons_html(self.verdict))

    def artifact_shown_text(self) -> str:
        """The text of the artifact judged (what the artifact tab shows once it is opened)."""
        return self._artifact_text

    def _on_tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.artifact and not self._artifact_set:
            self.artifact.setPlainText(self._artifact_text)
            self._artifact_set = True

    def _on_header_link_activated(self, link: str) -> None:
        kind, _, value = link.partition(":")
        (self.span_clicked if kind == "span" else self.node_clicked).emit(value)

    # -- text -------------------------------------------------------------------------------------
    def _header_html(self, p: RunProjection, v: ev.VerdictIssued) -> str:
        look = look_for(self)
        def node(node_id: str) -> str:
            row = p.nodes.get(node_id)
            title = row.title if row is not None and row.title else node_id
            return f'<a href="node:{html.escape(node_id)}"><b>{html.escape(title)}</b></a>'
        colour = look.decision(v.decision).name()
        model = f" · {html.escape(v.judge_model)}" if v.judge_model else ""
        span = f' · <a href="span:{html.escape(v.span_id)}">span</a>' if v.span_id else ""
        return (f"{node(v.node_id)} judged {node(v.subject_node_id)}: "
                f'<b style="color:{colour}">{html.escape(v.decision)}</b> · score {v.score:.2f} · '
                f"round {v.round}{model} · at {seconds(v.ts)} (seq {v.seq}){span}")

    def _reasons_html(self, v: ev.VerdictIssued) -> str:
        look = look_for(self)
        reasons = [f"<li>{html.escape(r)}</li>" for r in v.reasons] or ["<li><i>none given</i></li>"]
        parts = ["<b>Reasons</b><ul>", *reasons, "</ul>"]
        if v.claims:
            parts.append("<b>Claims</b><ul>")
            for claim in v.claims:
                held = bool(claim.get("supported", claim.get("held")))
                mark, colour = ("✓ held", look.approve) if held else ("✗ did not hold", look.reject)
                text = claim.get("claim") or claim.get("text") or str(claim)
                note = claim.get("evidence") or claim.get("reason") or ""
                note = f" — {html.escape(str(note))}" if note else ""
                parts.append(f'<li><span style="color:{colour.name()}">{mark}</span>: '
                             f"{html.escape(str(text))}{note}</li>")
            parts.append("</ul>")
        return "".join(parts)

