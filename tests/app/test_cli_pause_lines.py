"""`triadic run` and `triadic show` say when a run was paused, held at a breakpoint, stepped, resumed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.cli.board import RunBoard
from app.cli.event_lines import plain_line
from app.cli.main import main
from engine import events as ev
from engine.graph.model import Node, Workflow
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.runtime.fakes import FakeGateway, build


def test_run_lines_say_why_the_run_holds_and_how_it_went_on() -> None:
    wf = Workflow("Tiny")
    wf.add_node(Node("write", "executor", "Write"))
    board = RunBoard.for_workflow(wf)
    r = "run-1"
    lines = [plain_line(board, e) for e in (
        ev.RunPaused(run_id=r, seq=1, ts=0.1, reason="user"),
        ev.RunPaused(run_id=r, seq=2, ts=0.2, reason="breakpoint", node_id="write"),
        ev.RunResumed(run_id=r, seq=3, ts=0.3, mode="step", node_id="write"),
        ev.RunResumed(run_id=r, seq=4, ts=0.4, mode="resume"),
    )]
    assert lines == ["run paused by the user", "run paused at the breakpoint before Write (write)",
                     "run stepped: Write (write) starts, then the run holds again", "run resumed"]


def test_show_lists_the_pauses_and_events_dumps_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    wf = build([("in", "input", {"default": "go"}), ("x", "executor", {}), ("out", "output", {})],
               ["in.value->x.task", "x.result->out.value"])

    async def paused_run() -> str:
        with TraceStore(db) as store:
            run = Run(compile_workflow(wf), gateway=FakeGateway(), store=store)  # type: ignore[arg-type]
            run.set_breakpoint("x")
            run.start()
            while not run.control.paused:
                await asyncio.sleep(0.005)
            run.resume()
            return (await asyncio.wait_for(run.wait(), 5)).run_id

    run_id = asyncio.run(paused_run())
    assert main(["show", run_id[:8], "--db", str(db), "--events"]) == 0
    out = capsys.readouterr().out
    assert "Pauses:" in out and ": run paused at the breakpoint before x\n" in out and ": run resumed\n" in out
    assert '"reason": "breakpoint", "node_id": "x", "kind": "run_paused"' in out
    assert '"mode": "resume", "node_id": null, "kind": "run_resumed"' in out
