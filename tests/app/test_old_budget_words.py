"""A run stored before file format version 3 named its model-call stop `max_turns` (counted in "turns"):
wherever it is shown — the Runs list's reason, the projection's reason and problems (every dock), the Events
dock, `triadic show` / `triadic run`'s lines — it reads in today's words (`model_calls`, "calls"), while the
stored events stay as they were written."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.board import RunBoard
from app.cli.event_lines import plain_line
from app.cli.main import main
from engine import events as ev
from engine.budget import reason_now
from engine.projection import project
from engine.store import TraceStore
from widgets.events_view.event_text import event_summary

OLD_REASON = "run max_turns budget exceeded at node executor: 5 turns > limit 4 turns"
NOW_REASON = "run model_calls budget exceeded at node executor: 5 calls > limit 4 calls"


def _old_run() -> list[ev.Event]:
    r = "old"
    return [
        ev.RunStarted(run_id=r, seq=1, ts=0.0, workflow_id="w", workflow_name="W", workflow_hash="h",
                      settings={"budget": {"max_turns": 4}}),
        ev.BudgetExceeded(run_id=r, seq=2, ts=1.0, span_id="run", budget="max_turns", limit=4,  # type: ignore[arg-type]
                          actual=5, node_id="executor"),
        ev.RunFinished(run_id=r, seq=3, ts=1.1, span_id="run", status="budget_exceeded", reason=OLD_REASON,
                       duration_s=1.1),
    ]


def test_an_old_model_call_stop_is_shown_in_todays_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = _old_run()
    with TraceStore(tmp_path / "t.db") as store:
        store.import_run(events, {"id": "w", "name": "W", "settings": {}, "nodes": [], "edges": []}, started_at=0.0)
        run = store.get_run("old")
        assert run is not None and run.reason == NOW_REASON  # the Runs list, `triadic runs`, Compare
        stored = list(store.iter_events("old"))
    assert stored[1].budget == "max_turns" and stored[2].reason == OLD_REASON  # type: ignore[attr-defined]
    p = project(stored)
    assert p.reason == NOW_REASON and p.problems == ["budget model_calls exceeded at executor: 5 > limit 4"]
    assert event_summary(stored[1]) == "model_calls: 5 > 4" and NOW_REASON in event_summary(stored[2])
    board = RunBoard()
    assert plain_line(board, stored[1]) == "budget model_calls exceeded at executor: 5 > limit 4"
    assert plain_line(board, stored[2]) == f"run budget_exceeded: {NOW_REASON}"
    assert main(["show", "old", "--db", str(tmp_path / "t.db")]) == 0
    shown = capsys.readouterr().out
    assert NOW_REASON in shown and "max_turns" not in shown


def test_other_reasons_are_left_as_they_are() -> None:
    tool_turns = "executor: the tool loop reached max_turns (5) without an answer"  # an executor's own limit
    assert reason_now(tool_turns) == tool_turns and reason_now("") == ""
    assert reason_now(NOW_REASON) == NOW_REASON
