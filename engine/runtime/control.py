"""Run control shared by every node: pause / resume / step, breakpoints, and human decisions.

Invariants: a paused run starts no new node (running ones finish); `step()` lets exactly one more
node start; a node with a breakpoint pauses the run before it starts. A human gate waits on an
`asyncio.Future` (no polling) until `decide()` answers it, or the `HumanPolicy` does.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

HumanChoice = Literal["approve", "reject", "edit"]


class HumanAnswer(NamedTuple):
    """What a role gets back from a human question: the decision, the edited value, and why ("" when
    the person gave no reason); a gate's verdict carries the reason."""

    decision: HumanChoice
    edited: Any
    reason: str = ""


# what a front end answers: the decision, the edited value, and optionally why (kept in the trace)
HumanReply = tuple[HumanChoice, Any] | tuple[HumanChoice, Any, str]
HumanCallback = Callable[[str, str, Any], "HumanReply | Awaitable[HumanReply]"]


@dataclass(frozen=True, slots=True)
class HumanPolicy:
    """How headless runs answer human gates: always "approve", always "reject", or a callback
    `(node_id, prompt, artifact) -> (decision, edited)` or `(decision, edited, reason)` (sync or async)."""

    decide: Literal["approve", "reject"] | HumanCallback
    by: str = "policy"  # who answers, as recorded with the decision: "user" when the callback asks a person

    async def answer(self, node_id: str, prompt: str, artifact: Any) -> HumanReply:
        if self.decide == "approve" or self.decide == "reject":
            return self.decide, None
        result = self.decide(node_id, prompt, artifact)
        if inspect.isawaitable(result):
            result = await result
        return result


class RunControl:
    def __init__(self) -> None:
        self._resumed = asyncio.Event()
        self._resumed.set()
        self._steps = 0
        self.breakpoints: set[str] = set()
        self.pending_human: dict[str, asyncio.Future[HumanReply]] = {}

    @property
    def paused(self) -> bool:
        return not self._resumed.is_set()

    def pause(self) -> None:
        self._resumed.clear()

    def resume(self) -> None:
        self._steps = 0
        self._resumed.set()

    def step(self) -> None:
        self._steps += 1
        self._resumed.set()

    def holds(self, node_id: str) -> bool:
        """Whether `admit(node_id)` has anything to do (a pause, a step count, a breakpoint); the
        common case — running freely — then costs no coroutine."""
        return self._steps > 0 or not self._resumed.is_set() or node_id in self.breakpoints

    async def admit(self, node_id: str) -> None:
        """Wait until `node_id` may start (not paused, or a step is granted)."""
        if node_id in self.breakpoints and not self._steps:
            self.pause()
        while True:
            await self._resumed.wait()
            if self._steps:
                self._steps -= 1
                if not self._steps:
                    self._resumed.clear()
                return
            if self._resumed.is_set():
                return

    def wait_human(self, node_id: str) -> asyncio.Future[HumanReply]:
        future: asyncio.Future[HumanReply] = asyncio.get_running_loop().create_future()
        self.pending_human[node_id] = future
        return future

    def decide(self, node_id: str, decision: HumanChoice, edited: Any = None, reason: str = "") -> None:
        future = self.pending_human.pop(node_id, None)
        if future is None or future.done():
            raise ValueError(f"node {node_id!r} is not waiting for a human decision")
        if decision not in ("approve", "reject", "edit"):
            raise ValueError(f"decision must be approve, reject or edit, not {decision!r}")
        future.set_result((decision, edited, str(reason)))
