"""Driving one run from the terminal: events → board → reporter, human gates, Ctrl-C.

Invariants: the board and the reporter see every event in stream order on the loop thread; the
first Ctrl-C (SIGINT) cancels the run through `run.cancel()` and waits for it to finish cleanly
(its final events reach the store); a second Ctrl-C stops waiting. Human questions are answered
by the run's `HumanPolicy` (see `app.cli.human_prompt`) while the stream keeps flowing.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.cli.board import RunBoard
from app.cli.errors import EXIT_FAILED, CliError
from app.cli.fmt import is_terminal
from app.cli.human_prompt import gate_mode, human_policy
from app.cli.progress import JsonReporter, LiveReporter, PlainReporter, QuietReporter
from engine import events as ev

if TYPE_CHECKING:
    from engine.graph.model import Workflow
    from engine.runtime import Run, RunPlan, RunResult
    from engine.runtime.control import HumanPolicy
    from engine.store import TraceStore


@dataclass(slots=True)
class RunOptions:
    inputs: dict[str, object] = field(default_factory=dict)
    model_overrides: dict[str, str] = field(default_factory=dict)
    json: bool = False
    quiet: bool = False
    stream: bool = False
    auto_approve: bool = False
    auto_reject: bool = False


@dataclass(slots=True)
class RunOutcome:
    board: RunBoard
    result: RunResult
    interrupted: bool


def make_reporter(board: RunBoard, options: RunOptions) -> QuietReporter:
    if options.json:
        return JsonReporter(board)
    if options.quiet:
        return QuietReporter(board)
    if is_terminal(sys.stdout):
        return LiveReporter(board, stream=options.stream)
    return PlainReporter(board, stream=options.stream)


async def drive_run(plan: RunPlan, workflow: Workflow, store: TraceStore, options: RunOptions,
                    *, source: str = "", starter: Callable[[HumanPolicy], Run] | None = None) -> RunOutcome:
    """Start the run (`starter(human policy)` when given: a replay or a fork starts its own) and show it."""
    from app.cli.workflow_file import problem_lines
    from engine.runtime import CompileError
    from engine.runtime.launch import start_run

    # no terminal to ask on (a pipe, a file, or stdin closed: `<&-`) → gates follow the flags or reject
    interactive = is_terminal(sys.stdin) and is_terminal(sys.stdout) and not options.json
    mode = gate_mode(auto_approve=options.auto_approve, auto_reject=options.auto_reject,
                     interactive=interactive)
    board = RunBoard.for_workflow(workflow, plan)
    reporter = make_reporter(board, options)
    try:
        human = human_policy(mode, reporter)
        run = starter(human) if starter is not None else start_run(
            plan, store=store, inputs=options.inputs, model_overrides=options.model_overrides, human=human)
    except CompileError as exc:  # e.g. an override that puts a critic in its author's model family
        reporter.close()
        raise CliError("\n".join(problem_lines(source, exc.problems)) or str(exc)) from None
    interrupts = _InterruptHandler(run)
    waiter = asyncio.ensure_future(run.wait())
    try:
        async for batch in run.event_batches():
            for event in batch:  # the reporter reads the board as it is right after each event
                board.apply(event)
                reporter.on_event(event)
            if isinstance(batch[-1], ev.RunFinished):
                break
        result = await waiter
    except Exception as exc:  # the engine failed outside the run's own error handling
        raise CliError(f"the run stopped on an internal error: {type(exc).__name__}: {exc}",
                       code=EXIT_FAILED) from exc
    finally:
        reporter.close()
        interrupts.remove()
        if not waiter.done():
            waiter.cancel()
    _settle_from_result(board, result)
    return RunOutcome(board, result, interrupts.count > 0)


def _settle_from_result(board: RunBoard, result: RunResult) -> None:
    """Take the final figures from `RunResult` where the stream did not carry them."""
    if board.status in ("pending", "running"):
        board.status, board.reason, board.outputs = result.status, result.reason, dict(result.outputs)
    board.run_id = board.run_id or result.run_id
    board.duration_s = board.duration_s or result.duration_s
    lost = result.recording_errors
    board.problems += [f"not recorded: {error}" for error in lost[:_SHOWN_RECORDING_ERRORS]]
    if len(lost) > _SHOWN_RECORDING_ERRORS:
        board.problems.append(f"not recorded: {len(lost) - _SHOWN_RECORDING_ERRORS} more problems like these")


_SHOWN_RECORDING_ERRORS = 3


class _InterruptHandler:
    """SIGINT on the loop: first press cancels the run cleanly, the second stops waiting for it."""

    def __init__(self, run: Run) -> None:
        self._run = run
        self._main = asyncio.current_task()
        self.count = 0
        self._installed = False
        with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self._on_interrupt)
            self._installed = True

    def _on_interrupt(self) -> None:
        self.count += 1
        if self.count == 1:
            print("\ntriadic: cancelling the run… (Ctrl-C again to stop waiting)", file=sys.stderr, flush=True)
            self._run.cancel()
        elif self._main is not None:
            self._main.cancel()

    def remove(self) -> None:
        if self._installed:
            with contextlib.suppress(ValueError, RuntimeError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
            self._installed = False
