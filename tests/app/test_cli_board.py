"""The run board folds events into per-node figures; the plain and live views show them."""

from __future__ import annotations

import io

from rich.console import Console

from app.cli.board import RunBoard
from app.cli.event_lines import plain_line
from app.cli.progress import LiveReporter, PlainReporter, live_view
from app.cli.summary import print_summary
from engine import events as ev
from engine.graph.model import Node, Workflow


def _workflow() -> Workflow:
    wf = Workflow("Tiny")
    wf.add_node(Node("plan", "planner", "Plan"))
    wf.add_node(Node("review", "critic", "Review"))
    return wf


def _events() -> list[ev.Event]:
    r = "run-1"
    return [
        ev.RunStarted(run_id=r, seq=0, ts=0.0, workflow_id="w", workflow_name="Tiny", workflow_hash="h"),
        ev.NodeStateChanged(run_id=r, seq=1, ts=0.1, node_id="plan", state="running"),
        ev.LLMCallStarted(run_id=r, seq=2, ts=0.1, span_id="s1", node_id="plan", model="sim/x", request={}),
        ev.LLMTokenDelta(run_id=r, seq=3, ts=0.2, span_id="s1", text="hello "),
        ev.LLMTokenDelta(run_id=r, seq=4, ts=0.2, span_id="s1", text="world"),
        ev.LLMCallFinished(run_id=r, seq=5, ts=0.3, span_id="s1", node_id="plan", model="sim/x",
                           tokens_in=100, tokens_out=40, cost_usd=0.002),
        ev.NodeStateChanged(run_id=r, seq=6, ts=0.5, node_id="plan", state="done"),
        ev.VerdictIssued(run_id=r, seq=7, ts=0.6, node_id="review", subject_node_id="plan",
                         decision="revise", score=0.4, reasons=["missing step 3", "too long"], round=1),
        ev.BudgetExceeded(run_id=r, seq=8, ts=0.7, budget="tokens", limit=100, actual=140, node_id="plan"),
        ev.RunFinished(run_id=r, seq=9, ts=0.8, status="budget_exceeded", reason="token budget hit",
                       outputs={"result": "partial"}, tokens_in=100, tokens_out=40, cost_usd=0.002,
                       duration_s=0.8),
    ]


def test_board_folds_states_tokens_cost_and_verdicts() -> None:
    board = RunBoard.for_workflow(_workflow())
    for event in _events()[:5]:
        board.apply(event)
    assert board.stream_node() == "plan"
    assert board.stream_text == "hello world"
    for event in _events()[5:]:
        board.apply(event)
    plan = board.rows["plan"]
    assert (plan.state, plan.executions, plan.llm_calls) == ("done", 1, 1)
    assert (plan.tokens_in, plan.tokens_out, plan.cost_usd) == (100, 40, 0.002)
    assert plan.duration_s is not None and abs(plan.duration_s - 0.4) < 1e-9
    assert board.rows["review"].state == "-"
    assert board.stream_span is None
    assert board.status == "budget_exceeded" and board.outputs == {"result": "partial"}
    assert board.problems == ["budget tokens exceeded at plan: 140 > limit 100"]
    assert [v.decision for v in board.verdicts] == ["revise"]


def test_plain_lines_name_node_state_tokens_and_verdict() -> None:
    board = RunBoard.for_workflow(_workflow())
    lines = []
    for event in _events():
        board.apply(event)
        lines.append(plain_line(board, event))
    shown = [line for line in lines if line]
    assert shown[0] == "run run-1 started: Tiny"
    assert "Plan (plan) running" in shown
    assert not any(line.endswith(" queued") for line in shown)
    assert any("llm sim/x: 100/40 tok $0.002" in line for line in shown)
    assert any("verdict on plan: revise score 0.40 round 1: missing step 3" in line for line in shown)
    assert shown[-1] == "run budget_exceeded: token budget hit"
    assert lines[3] is None  # token deltas are not lines


def test_plain_reporter_streams_deltas_of_the_focused_call() -> None:
    board = RunBoard.for_workflow(_workflow())
    out = io.StringIO()
    reporter = PlainReporter(board, stream=True, out=out)
    for event in _events():
        board.apply(event)
        reporter.on_event(event)
    text = out.getvalue()
    assert "hello world\n[" in text
    assert text.count("\n") == len(text.splitlines())


def test_live_view_and_summary_render() -> None:
    board = RunBoard.for_workflow(_workflow())
    for event in _events()[:4]:
        board.apply(event)
    console = Console(file=io.StringIO(), width=120)
    console.print(live_view(board, stream=True))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Plan (plan)" in shown and "running" in shown and "streaming: plan" in shown
    for event in _events()[4:]:
        board.apply(event)
    console = Console(file=io.StringIO(), width=160)
    print_summary(board, __import__("pathlib").Path("/tmp/x.db"), console=console)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    for expected in ("budget_exceeded", "token budget hit", "Verdicts", "missing step 3", "partial",
                     "run id: run-1", "db: /tmp/x.db", "100/40"):
        assert expected in shown


def test_a_restarted_stream_drops_the_broken_text_and_says_so() -> None:
    board = RunBoard.for_workflow(_workflow())
    for event in _events()[:4]:  # "hello " streamed
        board.apply(event)
    restart = ev.LLMStreamRestarted(run_id="run-1", seq=10, ts=0.25, span_id="s1", attempt=2)
    board.apply(restart)
    assert board.stream_text == "" and board.stream_node() == "plan"
    assert plain_line(board, restart) == "Plan (plan) llm stream broke: retried from the start (attempt 2)"
    board.apply(ev.LLMTokenDelta(run_id="run-1", seq=11, ts=0.26, span_id="s1", text="again"))
    assert board.stream_text == "again"


def test_tool_calls_and_memory_writes_are_lines_and_counted() -> None:
    board = RunBoard.for_workflow(_workflow())
    r = "run-1"
    events = [
        ev.ToolCallStarted(run_id=r, seq=1, ts=0.1, span_id="t1", node_id="plan", tool="calculator",
                           arguments={"expression": "6 * 7"}),
        ev.ToolCallFinished(run_id=r, seq=2, ts=0.2, span_id="t1", node_id="plan", tool="calculator", result=42,
                            latency_s=0.003),
        ev.ToolCallStarted(run_id=r, seq=3, ts=0.3, span_id="t2", node_id="plan", tool="read_example_file",
                           arguments={"path": "nope"}),
        ev.ToolCallFinished(run_id=r, seq=4, ts=0.4, span_id="t2", node_id="plan", tool="read_example_file",
                            error="no such file: nope", latency_s=0.001),
        ev.MemoryWritten(run_id=r, seq=5, ts=0.5, node_id="plan", memory="notes", scope="run", key="k", value="v1"),
        ev.MemoryWritten(run_id=r, seq=6, ts=0.6, node_id="plan", memory="notes", scope="run", key="k", value="v2",
                         admitted=False, reason="the critic did not approve"),
        ev.MemoryRead(run_id=r, seq=7, ts=0.7, node_id="review", memory="notes", scope="run", key="k"),
    ]
    lines = []
    for event in events:
        board.apply(event)
        lines.append(plain_line(board, event))
    assert lines[0] is None
    assert lines[1] == "Plan (plan) tool calculator(expression=6 * 7) → 42 3 ms"
    assert lines[3] == "Plan (plan) tool read_example_file(path=nope) → error: no such file: nope 1 ms"
    check = ev.ToolCallFinished(run_id=r, seq=8, ts=0.8, span_id="t3", node_id="review", tool="check.regex",
                                result={"decision": "revise", "score": 0.0, "reasons": ["no match"]}, latency_s=0.002)
    board.apply(check)
    assert plain_line(board, check) == "Review (review) tool check.regex() → revise 0.0 2 ms"
    assert lines[4] == "Plan (plan) memory notes[k] (run) written: v1"
    assert lines[5] == "Plan (plan) memory notes[k] (run) write refused: the critic did not approve"
    assert lines[6] == "Review (review) memory notes[k] (run) read: nothing stored"
    plan = board.rows["plan"]
    assert plan.tool_calls == 2 and board.tool_arguments == {}
    console = Console(file=io.StringIO(), width=160)
    console.print(live_view(board, stream=False))
    assert "tools" in console.file.getvalue()  # type: ignore[attr-defined]


def test_a_retried_call_is_a_line_naming_the_error_and_the_wait() -> None:
    board = RunBoard.for_workflow(_workflow())
    for event in _events()[:3]:  # the plan node's call is open
        board.apply(event)
    retry = ev.LLMCallRetrying(run_id="run-1", seq=10, ts=0.25, span_id="s1", attempt=2,
                               error_type="RateLimitedError", error="rate limited (429)", delay_s=0.62)
    board.apply(retry)
    assert plain_line(board, retry) == "Plan (plan) llm RateLimitedError: rate limited (429) — attempt 2 in 0.62 s"


def test_log_lines_name_their_node_and_leave_debug_out() -> None:
    board = RunBoard.for_workflow(_workflow())
    info = ev.LogMessage(run_id="run-1", seq=1, ts=0.1, node_id="plan", message="vote m1: 3 of 5 samples agree")
    warning = ev.LogMessage(run_id="run-1", seq=2, ts=0.2, level="warning", message="loop bound reached")
    debug = ev.LogMessage(run_id="run-1", seq=3, ts=0.3, level="debug", node_id="plan", message="detail")
    assert plain_line(board, info) == "Plan (plan) vote m1: 3 of 5 samples agree"
    assert plain_line(board, warning) == "warning: loop bound reached"
    assert plain_line(board, debug) is None


def test_the_live_view_prints_event_lines_above_its_table_and_holds_them_during_a_question() -> None:
    board = RunBoard.for_workflow(_workflow())
    out = io.StringIO()
    reporter = LiveReporter(board, console=Console(file=out, width=120))
    events = _events()
    for event in events[:6]:  # started, running, the LLM call
        board.apply(event)
        reporter.on_event(event)
    reporter.pause()  # a question on the terminal
    for event in events[6:8]:  # done, the verdict
        board.apply(event)
        reporter.on_event(event)
    assert "verdict on plan" not in out.getvalue()
    reporter.resume()
    for event in events[8:]:
        board.apply(event)
        reporter.on_event(event)
    reporter.close()
    text = out.getvalue()
    assert "run run-1 started: Tiny" in text and "llm sim/x: 100/40 tok $0.002" in text
    assert "verdict on plan: revise" in text and "budget tokens exceeded at plan" in text
    assert "Plan (plan) running" not in text and "Plan (plan) done" not in text  # the table shows states


def test_sub_graph_nodes_have_rows_named_after_their_sub_graph_that_sum_into_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from cli_fixtures import EXAMPLE

    from engine.graph.model import Edge
    from engine.runtime import compile_workflow

    shutil.copy(EXAMPLE, tmp_path / "triad.triadic.json")
    outer = Workflow("Outer")
    outer.add_node(Node("in", "input", "Goal", {"name": "goal", "default": "tea"}))
    outer.add_node(Node("t", "subgraph", "Triad", {"path": "triad.triadic.json"}))
    outer.add_edge(Edge("e1", "in", "value", "t", "input"))
    board = RunBoard.for_workflow(outer, compile_workflow(outer, base_dir=tmp_path))
    assert list(board.rows)[:3] == ["in", "t", "t/goal"]
    planner = board.rows["t/planner"]
    assert (planner.title, planner.role) == ("Triad › Plan", "planner")
    board.apply(ev.LLMCallFinished(run_id="r", seq=1, ts=0.1, span_id="s", node_id="t/planner", model="sim/x",
                                   tokens_in=10, tokens_out=5, cost_usd=0.01))
    assert (planner.llm_calls, planner.tokens_in) == (1, 10)
    assert (board.rows["t"].llm_calls, board.rows["t"].tokens_in, board.rows["t"].cost_usd) == (0, 10, 0.01)
