"""Human questions of a headless run (gates, unapproved critic loops): the run's `HumanPolicy`.

Modes: "ask" (stdin and stdout are a terminal: show the question and the artifact, read approve /
reject / edit), "approve" / "reject" (--auto-approve / --auto-reject) and "no-terminal" (neither a
terminal nor a flag: reject, printing why on stderr). Invariants: the terminal is read in a daemon
thread so the event loop and the run keep going (and Ctrl-C still cancels); live progress is paused
while a question is shown; questions asked at the same time take turns.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TYPE_CHECKING, Any, Literal, Protocol

from app.cli import fmt

if TYPE_CHECKING:
    from engine.runtime import HumanPolicy
    from engine.runtime.control import HumanReply

GateMode = Literal["ask", "approve", "reject", "no-terminal"]
NO_TERMINAL_REASON = "rejected: no terminal to ask on and neither --auto-approve nor --auto-reject was given"


class Pausable(Protocol):
    def pause(self) -> None: ...

    def resume(self) -> None: ...


def gate_mode(*, auto_approve: bool, auto_reject: bool, interactive: bool) -> GateMode:
    if auto_approve:
        return "approve"
    if auto_reject:
        return "reject"
    return "ask" if interactive else "no-terminal"


async def read_line(prompt: str) -> str | None:
    """One line from stdin read in a daemon thread; None at end of input."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str | None] = loop.create_future()

    def settle(value: str | None) -> None:
        if not answer.done():
            answer.set_result(value)

    def work() -> None:
        try:
            line: str | None = input(prompt)
        except (EOFError, OSError, ValueError, RuntimeError):  # RuntimeError: no sys.stdin at all
            line = None
        loop.call_soon_threadsafe(settle, line)

    threading.Thread(target=work, name="triadic-human-prompt", daemon=True).start()
    return await answer


async def ask(node_id: str, prompt: str, artifact: Any) -> HumanReply:
    """Show the question and the artifact; read approve / reject (with an optional reason) / edit
    (end of input rejects)."""
    print(f"\n=== {node_id} asks: {prompt}", flush=True)
    if artifact is not None:
        print(fmt.text(artifact), flush=True)
    while True:
        line = await read_line("approve, reject or edit? [a/r/e] ")
        choice = (line or "").strip().lower()
        if line is None:
            return "reject", None, "end of input on the terminal"
        if choice in ("r", "reject", "n", "no"):
            why = await read_line("why (optional, kept in the trace)? ")
            return "reject", None, (why or "").strip()
        if choice in ("a", "approve", "y", "yes"):
            return "approve", None
        if choice in ("e", "edit"):
            print("Enter the new value; end with a line holding only '.'", flush=True)
            lines: list[str] = []
            while (row := await read_line("")) is not None and row != ".":
                lines.append(row)
            return "edit", "\n".join(lines)
        print("please answer a (approve), r (reject) or e (edit)", flush=True)


def human_policy(mode: GateMode, reporter: Pausable) -> HumanPolicy:
    from engine.runtime import HumanPolicy

    if mode == "approve" or mode == "reject":
        return HumanPolicy(mode)

    one_at_a_time = asyncio.Lock()  # concurrent gates take turns on the one terminal

    async def decide(node_id: str, prompt: str, artifact: Any) -> HumanReply:
        if mode == "no-terminal":
            print(f"triadic: {node_id} ({fmt.one_line(prompt, 80)}) {NO_TERMINAL_REASON}",
                  file=sys.stderr, flush=True)
            return "reject", None, NO_TERMINAL_REASON
        async with one_at_a_time:
            reporter.pause()
            try:
                return await ask(node_id, prompt, artifact)
            finally:
                reporter.resume()

    return HumanPolicy(decide, by="user" if mode == "ask" else "policy")  # "ask": a person at the terminal
