"""Validation off the GUI thread: after any edits the rows equal a full validation, a stale result is
never shown over a newer edit, and moves (which validation never reads) do not re-validate."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from engine.graph.generate import generate_workflow
from engine.graph.model import Edge, Node, NodeUi, RunSettings, Workflow
from engine.graph.problems import Problem
from engine.graph.validate import validate
from widgets.problems import ProblemsPanel
from widgets.problems.background_validation import BackgroundValidation


def _errors_first(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda p: p.severity != "error")


def _background_panel(qtbot: QtBot, wf: Workflow) -> ProblemsPanel:
    panel = ProblemsPanel(Workflow())
    qtbot.addWidget(panel)
    panel.background_above = 0  # every workflow is validated on the worker thread
    panel.set_workflow(wf)
    assert not panel.current and panel.summary.text() == "Checking the workflow…"
    qtbot.waitUntil(lambda: panel.current, timeout=5000)
    return panel


def test_rows_after_edits_equal_a_full_validation(qtbot: QtBot) -> None:
    wf = generate_workflow(120, seed=5)
    panel = _background_panel(qtbot, wf)
    assert panel.model.problems == []
    executor = next(n for n in wf.nodes.values() if n.role == "executor")
    critic = next(n for n in wf.nodes.values() if n.role == "critic")
    wf.remove_edge(next(e.id for e in wf.edges.values() if e.target == critic.id and e.target_port == "subject"))
    wf.set_param(executor.id, "model", "")
    wf.set_title(executor.id, "Renamed")
    wf.add_node(Node("loner", "executor", "Loner", {}, NodeUi()))
    wf.add_edge(Edge("dangling", "loner", "result", "nowhere", "value"))
    wf.set_settings(RunSettings(concurrency=0))
    assert not panel.current
    qtbot.waitUntil(lambda: panel.current, timeout=5000)
    expected = _errors_first(validate(wf))
    assert len(expected) >= 4 and panel.model.problems == expected
    assert panel.counts() == (sum(p.severity == "error" for p in expected),
                              sum(p.severity == "warning" for p in expected))


def test_moves_and_canvas_only_changes_do_not_revalidate(qtbot: QtBot) -> None:
    wf = generate_workflow(40, seed=2)
    panel = _background_panel(qtbot, wf)
    node_id = next(iter(wf.nodes))
    wf.move_node(node_id, 500.0, 40.0)
    wf.set_node_ui(node_id, color="#ff0000")
    wf.set_ui("comments", [{"id": "c1", "text": "note", "x": 0, "y": 0}])
    assert panel.current


def test_a_result_older_than_the_newest_edit_is_dropped(qtbot: QtBot) -> None:
    wf = generate_workflow(30, seed=4)
    release = threading.Event()
    seen_titles: list[str] = []
    node_id = next(iter(wf.nodes))

    def slow_validate(copy: Workflow) -> list[Problem]:
        seen_titles.append(copy.nodes[node_id].title)
        if len(seen_titles) == 1:
            release.wait(5)  # the first validation is still running when the next edits come
        return validate(copy)

    background = BackgroundValidation(slow_validate)
    shown: list[list[Problem]] = []
    background.validated.connect(shown.append)
    background.follow(wf)
    background.request()
    wf.set_title(node_id, "second")
    background.request()
    wf.set_title(node_id, "third")
    wf.add_node(Node("loner", "executor", "Loner", {}, NodeUi()))
    background.request()  # replaces the waiting request: no queue of validations
    release.set()
    qtbot.waitUntil(lambda: not background.pending, timeout=5000)
    assert seen_titles == [seen_titles[0], "third"]
    assert background.dropped == 1
    assert shown == [validate(wf)]


def test_a_result_for_a_replaced_workflow_is_never_shown(qtbot: QtBot) -> None:
    release = threading.Event()

    def slow_validate(copy: Workflow) -> list[Problem]:
        release.wait(5)
        return validate(copy)

    old = generate_workflow(20, seed=1)
    old.add_node(Node("loner", "executor", "Loner", {}, NodeUi()))
    panel = ProblemsPanel(Workflow())
    qtbot.addWidget(panel)
    panel.background_above = 0
    panel.background._validator = slow_validate
    panel.set_workflow(old)
    panel.set_workflow(generate_workflow(20, seed=1))
    release.set()
    qtbot.waitUntil(lambda: panel.current, timeout=5000)
    qtbot.wait(50)
    assert panel.model.problems == [] and panel.background.dropped == 1


def test_validations_run_on_one_thread_that_lives_on(qtbot: QtBot) -> None:
    wf = generate_workflow(30, seed=5)
    threads: list[threading.Thread] = []

    def validate_here(copy: Workflow) -> list[Problem]:
        threads.append(threading.current_thread())
        return validate(copy)

    background = BackgroundValidation(validate_here)
    background.follow(wf)
    for title in ("one", "two", "three"):
        wf.set_title(next(iter(wf.nodes)), title)
        background.request()
        qtbot.waitUntil(lambda: not background.pending, timeout=5000)
    assert len(threads) == 3 and len(set(threads)) == 1  # no thread started per request
    assert threads[0] is not threading.main_thread() and threads[0].is_alive() and threads[0].daemon
