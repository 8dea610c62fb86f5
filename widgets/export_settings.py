"""Settings ▸ Export: where each finished run is sent as an OpenTelemetry trace, and whether its prompts
and replies go too. The dialog takes the current values in `__init__` and gives the chosen ones back
(`endpoint`, `include_content`) when accepted; it stores nothing itself. An address that is not an
http(s) URL keeps OK disabled and says why under the field; an empty address turns the export off.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from engine.export.endpoint import EndpointError, traces_url

_INTRO = ("Each run is sent, when it ends, to an OpenTelemetry (OTLP/HTTP) receiver — Phoenix, Langfuse, "
          "Jaeger or a collector — as spans following the GenAI conventions. Sending happens in the "
          "background and never holds up or fails a run. API keys are never sent.")


class ExportSettingsDialog(QDialog):
    def __init__(self, endpoint: str, include_content: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export settings")
        intro = QLabel(_INTRO, self)
        intro.setWordWrap(True)
        self.endpoint_edit = QLineEdit(endpoint, self)
        self.endpoint_edit.setPlaceholderText("off — e.g. http://127.0.0.1:4318")
        self.endpoint_edit.setClearButtonEnabled(True)
        self.content_box = QCheckBox("Include prompts, replies and tool results", self)
        self.content_box.setChecked(include_content)
        self.problem = QLabel(self)
        self.problem.setObjectName("endpoint_problem")
        self.problem.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Receiver address:", self.endpoint_edit)
        form.addRow("", self.problem)
        form.addRow("", self.content_box)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        parent=self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.endpoint_edit.textChanged.connect(self._on_endpoint_changed)
        self._on_endpoint_changed(endpoint)
        self.resize(520, self.sizeHint().height())

    @property
    def endpoint(self) -> str:
        return self.endpoint_edit.text().strip()

    @property
    def include_content(self) -> bool:
        return self.content_box.isChecked()

    def _on_endpoint_changed(self, text: str) -> None:
        problem = ""
        if text.strip():
            try:
                shown = traces_url(text)
            except EndpointError as exc:
                problem = str(exc)
            else:
                self.problem.setText(f"Spans go to {shown}")
        else:
            self.problem.setText("Export is off.")
        if problem:
            self.problem.setText(problem)
        self.content_box.setEnabled(bool(text.strip()) and not problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)
