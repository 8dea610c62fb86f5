"""What a run's hold changes: the events that announce it, and the run's deadline clock.

`PauseAnnouncer` is the `RunControl.on_change` listener of a `Run`: each change of the run's hold
becomes one `RunPaused` ("user" / "breakpoint", with the node held) or `RunResumed` ("resume" / "step",
with the node let through), in the run's span, and stops or restarts the `RunDeadline` clock.

The run's `deadline_s` counts the time the run goes on, not the time it holds: a run paused by the
user, stopped at a breakpoint or between single steps is being looked at, not running late, and a
person who pauses a run with a 60 s deadline to read a node's output expects it to go on with the time
it had left, not to be cut `budget_exceeded` on resume. Work in flight when the run holds still goes
on (a node's own `deadline_s`, tokens, cost and model calls still bound it); the clock counts again from
"resume".

Invariants: events are announced only between `RunStarted` and `RunFinished` (`start` / `stop`); a
hold from before the start is announced right after `RunStarted` ("user": only a person can hold a run
that has not started); `held_s() + counted time == time since the deadline window opened`; while the
run holds the window has no deadline, and it never has one when `limit_s` is unset.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from engine.events import RunPaused, RunResumed
from engine.runtime.control import HoldCause, RunControl
from engine.runtime.hub import EventHub


class RunDeadline:
    """The run's wall-clock deadline, whose clock stops while the run holds."""

    def __init__(self, limit_s: float | None) -> None:
        self.limit_s = limit_s or None
        self._window: asyncio.Timeout | None = None
        self._opened: float | None = None  # loop time the window opened (the clock started)
        self._held_since: float | None = None
        self._held_total = 0.0
        self.on_moved: Callable[[float | None], None] | None = None  # told the new deadline (loop time)

    def window(self) -> asyncio.Timeout:
        """The `async with` window that raises TimeoutError once the counted time passes `limit_s`."""
        self._opened = now = asyncio.get_running_loop().time()
        if self._held_since is not None:  # held before the window opened: nothing counted until then
            self._held_since = now
        self._window = asyncio.timeout_at(self._when())
        return self._window

    def hold(self, held: bool) -> None:
        """Stop the clock (`held`) or let it go on from where it stopped."""
        if held is (self._held_since is not None):
            return
        now = asyncio.get_running_loop().time() if self._opened is not None else 0.0
        if held:
            self._held_since = now
        else:
            assert self._held_since is not None
            self._held_total += now - self._held_since
            self._held_since = None
        if self._window is not None and self.limit_s is not None:
            try:
                self._window.reschedule(self._when())
            except RuntimeError:  # the window is over (or expiring): nothing left to move
                return
            if self.on_moved is not None:
                self.on_moved(self._when())

    def held_s(self) -> float:
        """Seconds the run held since the window opened (so far)."""
        if self._opened is None:
            return 0.0
        ongoing = asyncio.get_running_loop().time() - self._held_since if self._held_since is not None else 0.0
        return self._held_total + ongoing

    def _when(self) -> float | None:
        if self.limit_s is None or self._held_since is not None or self._opened is None:
            return None
        return self._opened + self.limit_s + self._held_total


class PauseAnnouncer:
    """The `RunControl.on_change` of a run: announces each change of its hold, moves its deadline."""

    def __init__(self, hub: EventHub, control: RunControl, deadline: RunDeadline) -> None:
        self.hub, self.control, self.deadline = hub, control, deadline
        self._span: str | None = None  # the run's span while the run is between its first and last event
        self._over = False

    def __call__(self, cause: HoldCause, node_id: str | None) -> None:
        if self._over:  # the run has ended: a pause now holds nothing and says nothing
            return
        self.deadline.hold(self.control.paused)
        if self._span is None:
            return
        if cause == "user" or cause == "breakpoint":
            self.hub.emit(RunPaused, span_id=self._span, reason=cause, node_id=node_id)
        else:
            self.hub.emit(RunResumed, span_id=self._span, mode=cause, node_id=node_id)

    def start(self, span: str) -> None:
        """`RunStarted` is out: from now on changes are announced (a hold from before, right away)."""
        self._span = span
        if self.control.paused:
            self.hub.emit(RunPaused, span_id=span, reason="user")

    def stop(self) -> None:
        """`RunFinished` comes next: nothing more is announced, the deadline no longer moves. The
        control lets go of this listener and the deadline of its mover: they formed reference cycles
        (control → announcer → control), which kept a finished run's whole event history alive until
        the cycle collector came by — and made every collection during the next run traverse it."""
        self._span, self._over = None, True
        if self.control.on_change is self:
            self.control.on_change = None
        self.deadline.on_moved = None
