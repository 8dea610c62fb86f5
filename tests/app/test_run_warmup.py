"""What a run needs (the engine, tokenizer tables, litellm for a model that goes through it) loads off the
GUI loop when a person reaches for Run — the Run button hovered, the Run menu opened, the inputs dialog
shown — and at the latest when a run starts; never merely because the window or a file was opened."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle

from app.preload import RunWarmup, models_of


def test_nothing_a_run_needs_loads_until_a_person_reaches_for_run(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    warmup = window.runs.warmup

    async def scenario() -> dict[str, float]:
        await settle(0.3)
        assert warmup.loading is None  # the window shows its file: nothing of a run loaded
        window.actions_by_name["run"].hover()  # the pointer on the Run button
        loading = warmup.loading
        assert loading is not None
        spent = await loading
        window.actions_by_name["run"].hover()
        window.menus["run"].aboutToShow.emit()
        assert warmup.loading is loading  # loaded once for these models
        return spent

    spent = drive(gui_loop, scenario())
    assert "engine" in spent and any(name.endswith("_base") for name in spent)  # the tokenizer table too
    assert "litellm" not in spent  # the example's models are simulated: no gateway needed


def test_the_run_menu_and_the_inputs_dialog_start_the_load(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    window.menus["run"].aboutToShow.emit()
    assert window.runs.warmup.loading is not None
    other = run_window(qtbot, tmp_path / "other", "triad")
    assert other.runs.warmup.loading is None
    other.actions_by_name["run"].trigger()  # F5: the example asks for its inputs
    assert other.inputs_dialog is not None and other.inputs_dialog.isVisible()
    assert other.runs.warmup.loading is not None  # loading while the person answers
    drive(gui_loop, settle(0.05))


def test_a_run_started_without_reaching_for_it_first_waits_for_the_load(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")

    async def scenario() -> str | None:
        assert window.runs.warmup.loading is None
        run_id = await window.runs.start_run({}, {})
        loading = window.runs.warmup.loading
        assert loading is not None and loading.done()  # loaded off the loop before the run began
        if run_id is not None:
            await window.runs.runs[run_id].task
        return run_id

    assert drive(gui_loop, scenario()) is not None


def test_a_workflow_naming_other_models_loads_for_them_too(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, "triad")
    workflow = window.document.workflow
    warmup = RunWarmup()

    async def scenario() -> None:
        first = warmup.start(workflow)
        assert first is not None
        await first
        assert warmup.start(workflow) is first
        node = next(n for n in workflow.nodes.values() if n.param("model"))
        renamed = dataclasses.replace(node, params={**node.params, "model": "sim/another"})
        workflow.nodes[node.id] = renamed
        assert "sim/another" in models_of(workflow)
        second = warmup.start(workflow)
        assert second is not None and second is not first
        await warmup.ready(workflow)
        assert second.done()

    drive(gui_loop, scenario())
