"""Run control shared by every node: pause / resume / step, breakpoints, and human decisions.

Invariants: a paused run starts no new node (running ones finish); `step()` lets exactly one more
node start and the run holds again after it; a node with a breakpoint pauses the run before it starts.
`paused` is whether the run holds (paused by the user, at a breakpoint, or after a step) and
`on_change(cause, node_id)` is called once per change of it — pausing a held run, or resuming a free
one, calls nothing — plus once per node a step lets through ("step", that node), so a listener can
announce every change and nothing else. A node that is not held costs `holds()` only: the listener is
never on that path. A human gate waits on an `asyncio.Future` (no polling) until `decide()` answers
it, or the `HumanPolicy` does.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

HumanChoice = Literal["approve", "reject", "edit"]
# why the run holds ("user", "breakpoint"), or how it goes on ("resume", "step")
HoldCause = Literal["user", "breakpoint", "resume", "step"]
HoldListener = Callable[[HoldCause, str | None], None]


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
    def __init__(self, on_change: HoldListener | None = None) -> None:
        self._resumed = asyncio.Event()
        self._resumed.set()
        self._steps = 0
        self._held = False
        self.on_change = on_change
        self.breakpoints: set[str] = set()
        self.pending_human: dict[str, asyncio.Future[HumanReply]] = {}

    @property
    def paused(self) -> bool:
        """Whether the run holds: paused, at a breakpoint, or after a step (a step granted to a held run
        leaves it held; a step granted to a free run holds it once the step is taken)."""
        return self._held

    def pause(self) -> None:
        """Hold the run; a step granted and not yet taken is withdrawn."""
        self._steps = 0
        self._resumed.clear()
        self._set_held(True, "user")

    def resume(self) -> None:
        self._steps = 0
        self._resumed.set()
        self._set_held(False, "resume")

    def step(self) -> None:
        """Let one more node start; the run holds again once it has (a free run too: it holds after it)."""
        self._steps += 1
        self._resumed.set()

    def holds(self, node_id: str) -> bool:
        """Whether `admit(node_id)` has anything to do (a pause, a step count, a breakpoint); the
        common case — running freely — then costs no coroutine."""
        return self._steps > 0 or not self._resumed.is_set() or node_id in self.breakpoints

    async def admit(self, node_id: str) -> None:
        """Wait until `node_id` may start (not paused, or a step is granted)."""
        if node_id in self.breakpoints and not self._steps:
            self._resumed.clear()
            self._set_held(True, "breakpoint", node_id)
        while True:
            await self._resumed.wait()
            if self._steps:
                self._steps -= 1
                if not self._steps:
                    self._resumed.clear()
                self._held = True
                if self.on_change is not None:
                    self.on_change("step", node_id)
                return
            if self._resumed.is_set():
                return

    def _set_held(self, held: bool, cause: HoldCause, node_id: str | None = None) -> None:
        if held is self._held:
            return
        self._held = held
        if self.on_change is not None:
            self.on_change(cause, node_id)

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
