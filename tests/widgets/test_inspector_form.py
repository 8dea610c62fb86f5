"""Inspector: forms built from ParamSpecs, edits become requests, and the form follows the model."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from engine.graph.model import Budget, Node, NodeUi, RunSettings, Workflow
from engine.graph.roles import role_spec
from widgets.inspector import BUILTIN_MODELS, InspectorWidget, known_models, template_variables
from widgets.inspector.node_form import NodeForm
from widgets.inspector.param_editors import (
    BoolEditor,
    ChoiceEditor,
    FloatEditor,
    IntEditor,
    JsonEditor,
    ListEditor,
    ModelEditor,
    TextEditor,
)
from widgets.inspector.settings_form import RunSettingsForm


def _workflow() -> Workflow:
    wf = Workflow("w")
    wf.add_node(Node("plan", "planner", "Plan", {"max_tasks": 5}, NodeUi()))
    wf.add_node(Node("check", "verifier", "Check", {}, NodeUi()))
    wf.add_node(Node("route", "router", "Route", {}, NodeUi()))
    return wf


def test_form_has_one_editor_per_param_of_the_right_kind(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show_node("plan")
    form = inspector.form
    assert isinstance(form, NodeForm)
    spec = role_spec("planner")
    assert spec is not None and list(form.editors) == [p.name for p in spec.params]
    assert isinstance(form.editors["model"], ModelEditor)
    assert isinstance(form.editors["prompt"], TextEditor)
    assert isinstance(form.editors["max_tasks"], IntEditor)
    assert isinstance(form.editors["temperature"], FloatEditor)
    assert isinstance(form.editors["sim"], JsonEditor)
    max_tasks = form.editors["max_tasks"]
    assert isinstance(max_tasks, IntEditor)
    assert (max_tasks.spin.minimum(), max_tasks.spin.maximum(), max_tasks.spin.value()) == (1, 1000, 5)
    temperature = form.editors["temperature"]
    assert isinstance(temperature, FloatEditor) and temperature.spin.maximum() == 2.0
    inspector.show_node("check")
    assert isinstance(inspector.form, NodeForm)
    assert isinstance(inspector.form.editors["check"], ChoiceEditor)
    inspector.show_node("route")
    assert isinstance(inspector.form, NodeForm)
    assert isinstance(inspector.form.editors["routes"], ListEditor)
    spec = role_spec("critic")
    assert spec is not None
    assert any(isinstance(NodeForm(Node("c", "critic")).editors[p.name], BoolEditor) for p in spec.params)


def test_edits_emit_requests_without_touching_the_model(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show_node("plan")
    form = inspector.form
    assert isinstance(form, NodeForm)
    params: list[tuple[str, str, object]] = []
    titles: list[tuple[str, str]] = []
    inspector.param_change_requested.connect(lambda *a: params.append(a))
    inspector.title_change_requested.connect(lambda *a: titles.append(a))
    max_tasks = form.editors["max_tasks"]
    assert isinstance(max_tasks, IntEditor)
    max_tasks.spin.setValue(7)
    prompt = form.editors["prompt"]
    assert isinstance(prompt, TextEditor)
    prompt.edit.setPlainText("Plan {goal} with {style}")
    prompt.commit()
    assert prompt.variables.text() == "Variables: {goal}, {style}"
    form.title_edit.setText("New plan")
    form.title_edit.editingFinished.emit()
    assert params == [("plan", "max_tasks", 7), ("plan", "prompt", "Plan {goal} with {style}")]
    assert titles == [("plan", "New plan")]
    assert wf.nodes["plan"].params == {"max_tasks": 5} and wf.nodes["plan"].title == "Plan"


def test_json_editor_refuses_invalid_json(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show_node("plan")
    assert isinstance(inspector.form, NodeForm)
    editor = inspector.form.editors["sim"]
    assert isinstance(editor, JsonEditor)
    seen: list[object] = []
    inspector.param_change_requested.connect(lambda *a: seen.append(a))
    editor.edit.setPlainText('{"latency_ms": ')
    editor.commit()
    assert seen == [] and not editor.error.isHidden() and "Invalid JSON" in editor.error.text()
    editor.edit.setPlainText('{"latency_ms": 5}')
    editor.commit()
    assert seen == [("plan", "sim", {"latency_ms": 5})] and editor.error.isHidden()


def test_form_follows_model_changes_and_removal(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show_node("plan")
    seen: list[object] = []
    inspector.param_change_requested.connect(lambda *a: seen.append(a))
    wf.set_param("plan", "max_tasks", 9)
    wf.set_title("plan", "Renamed")
    form = inspector.form
    assert isinstance(form, NodeForm)
    max_tasks = form.editors["max_tasks"]
    assert isinstance(max_tasks, IntEditor) and max_tasks.spin.value() == 9
    assert form.title_edit.text() == "Renamed"
    assert seen == []  # following the model never asks for a change
    wf.remove_node("plan")
    assert isinstance(inspector.form, RunSettingsForm)


def test_run_settings_form_emits_and_follows(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    form = inspector.form
    assert isinstance(form, RunSettingsForm)
    seen: list[RunSettings] = []
    inspector.settings_change_requested.connect(seen.append)
    form.concurrency.setValue(3)
    assert seen == [RunSettings(Budget(), 3, 0)] and wf.settings.concurrency == 8
    wf.set_settings(RunSettings(Budget(max_tokens=500), 2, 7))
    assert (form.max_tokens.value(), form.concurrency.value(), form.seed.value()) == (500, 2, 7)
    assert len(seen) == 1


def test_model_picker_lists_builtin_and_litellm_models_lazily(qtbot: QtBot) -> None:
    import sys

    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show_node("plan")
    assert isinstance(inspector.form, NodeForm)
    editor = inspector.form.editors["model"]
    assert isinstance(editor, ModelEditor)
    assert [editor.combo.itemText(i) for i in range(editor.combo.count())] == list(BUILTIN_MODELS)
    litellm_loaded = "litellm" in sys.modules
    editor.combo.load_all()
    assert ("litellm" in sys.modules) == litellm_loaded  # the model map is read without importing litellm
    assert editor.combo.count() > 500 and editor.combo.findText("gpt-4o-mini") >= 0
    assert editor.combo.currentText() == "sim/default"
    assert known_models()[:3] == list(BUILTIN_MODELS)
    seen: list[object] = []
    inspector.param_change_requested.connect(lambda *a: seen.append(a))
    editor.combo.setEditText("gpt-4o-mini")
    editor.commit()
    assert seen == [("plan", "model", "gpt-4o-mini")]


def test_template_variables() -> None:
    assert template_variables("Do {task} for {goal}; again {task}, not {{literal}}") == ["task", "goal"]


def test_enter_in_title_is_keyboard_driven(qtbot: QtBot) -> None:
    wf = _workflow()
    inspector = InspectorWidget(wf)
    qtbot.addWidget(inspector)
    inspector.show()
    inspector.show_node("plan")
    form = inspector.form
    assert isinstance(form, NodeForm)
    seen: list[object] = []
    inspector.title_change_requested.connect(lambda *a: seen.append(a))
    form.title_edit.setFocus()
    form.title_edit.selectAll()
    qtbot.keyClicks(form.title_edit, "Typed")
    qtbot.keyClick(form.title_edit, Qt.Key.Key_Return)
    assert seen == [("plan", "Typed")]


def test_budgets_read_none_at_zero_and_labels_are_words(qtbot) -> None:  # type: ignore[no-untyped-def]
    from engine.graph.roles import role_spec
    from widgets.inspector.value_editors import FloatEditor, IntEditor

    spec = role_spec("executor")
    assert spec is not None
    tokens, cost = IntEditor(spec.param_index["max_tokens_budget"]), FloatEditor(spec.param_index["max_cost_usd"])
    retries = IntEditor(spec.param_index["retries"])
    for editor in (tokens, cost, retries):
        qtbot.addWidget(editor)
    assert tokens.spin.text() == "none" and cost.spin.text() == "none"
    assert retries.spin.specialValueText() == ""  # not a budget: 0 is a number
    tokens.spin.setValue(500)
    assert tokens.spin.text() == "500" and tokens.value() == 500


def test_fan_out_roles_show_their_concurrency_with_the_runs_cap_at_zero(qtbot: QtBot) -> None:
    for role, default in (("executor", 0), ("vote", 0), ("map", 4)):
        form = NodeForm(Node("n", role))
        qtbot.addWidget(form)
        editor = form.editors["concurrency"]
        assert isinstance(editor, IntEditor) and (editor.spin.minimum(), editor.spin.maximum()) == (0, 1000)
        assert editor.spin.value() == default and editor.spin.specialValueText() == "run's cap"
        assert "0 = only the run's cap" in editor.toolTip()  # the help, on hover
    assert "concurrency" not in NodeForm(Node("p", "planner")).editors


def test_a_verifier_shows_the_sandbox_strength_read_only(qtbot: QtBot) -> None:
    from engine.checks.sandbox import sandbox_strength

    form = NodeForm(Node("v", "verifier"))
    qtbot.addWidget(form)
    assert form.sandbox_label is not None and form.sandbox_label.text() == sandbox_strength()
    assert form.sandbox_label.text().split(":")[0] in ("strong", "weak")
    assert NodeForm(Node("p", "planner")).sandbox_label is None
