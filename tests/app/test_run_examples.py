"""Every bundled example run from the window on the simulated provider: the canvas and the projection show
what the store holds, and the CLI lists the run like one of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
import qasync
from pytestqt.qtbot import QtBot
from run_fixtures import drive, run_window, settle

from app.cli.main import main
from engine.store.store import TraceStore

EXAMPLES = ["triad", "research", "code_fix", "text_to_sql", "hanoi", "tools"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_runs_from_the_window_as_the_store_records_it(
        name: str, qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path) -> None:
    window = run_window(qtbot, tmp_path, name)

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    live = window.runs.runs[run_id]
    p = live.projection
    with TraceStore(tmp_path / "trace.db") as store:
        stored = store.get_run(run_id)
        assert stored is not None
        events = list(store.iter_events(run_id))
    assert live.recording_errors == []
    assert stored.status == p.status == "succeeded", p.reason
    assert (stored.tokens_in, stored.tokens_out) == (p.tokens_in, p.tokens_out)
    assert p.tokens_in > 0 and p.tokens_out > 0
    assert stored.cost_usd == pytest.approx(p.cost_usd)
    assert [e.seq for e in events] == [e.seq for e in p.events]
    overlay = window.scene.run
    shown = [n for n in p.nodes if n in window.scene.node_items]
    assert shown
    for node_id in shown:
        assert overlay.state_of(node_id) == p.nodes[node_id].state, node_id
        assert window.scene.node_items[node_id].run_color is not None
        assert p.nodes[node_id].state in ("done", "skipped")
    assert window.run_toolbar.state.text().startswith("succeeded")
    assert window.run_status.text() == live.summary()
    assert not window.actions_by_name["stop"].isEnabled()


def test_a_window_run_is_listed_and_shown_by_the_cli(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    window = run_window(qtbot, tmp_path, "triad")

    async def scenario() -> str:
        run_id = await window.runs.start_run({"goal": "Plan a garden"}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        return run_id

    run_id = drive(gui_loop, scenario())
    db = str(tmp_path / "trace.db")
    capsys.readouterr()
    assert main(["runs", "--db", db]) == 0
    assert run_id[:8] in capsys.readouterr().out
    assert main(["show", run_id[:8], "--db", db]) == 0
    assert "succeeded" in capsys.readouterr().out
    with TraceStore(db) as store:
        stored = store.get_run(run_id)
        assert stored is not None and stored.inputs == {"goal": "Plan a garden"}


def test_what_could_not_be_recorded_is_said_in_the_window(
        qtbot: QtBot, gui_loop: qasync.QEventLoop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_save(self: TraceStore, doc: dict, *, workflow_hash: str) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(TraceStore, "save_workflow", broken_save)
    window = run_window(qtbot, tmp_path, "triad")
    reported: list[tuple[str, str]] = []
    window.runs.error_reported.connect(lambda title, text: reported.append((title, text)))

    async def scenario() -> str:
        run_id = await window.runs.start_run({}, {})
        assert run_id is not None
        await window.runs.runs[run_id].task
        await settle()
        return run_id

    run_id = drive(gui_loop, scenario())
    live = window.runs.runs[run_id]
    assert live.projection.status == "succeeded"  # the run itself went on
    assert any("workflow version" in e and "disk full" in e for e in live.recording_errors)
    assert [t for t, _ in reported] == ["Part of the run was not recorded"]
    assert "disk full" in reported[0][1]
