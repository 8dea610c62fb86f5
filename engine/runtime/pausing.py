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
that has not started) and counted from that `RunPaused`. The clock (`engine.deadline_clock`) runs from
`RunStarted` — the start-up checks count, a hold during them does not — and is read on the hub's clock,
just before each hold's event, so the projection of the events counts what the engine counted (to the
microseconds between the reading and the event's `ts`). While the run holds the window has no deadline,
and it never has one when `limit_s` is unset.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from engine.deadline_clock import DeadlineClock
from engine.events import RunPaused, RunResumed
from engine.runtime.control import HoldCause, RunControl
from engine.runtime.hub import EventHub


class RunDeadline:
    """The run's wall-clock deadline, whose clock (`DeadlineClock`, on `now`: run time) stops while the run holds."""

    def __init__(self, limit_s: float | None, now: Callable[[], float]) -> None:
        self.limit_s = limit_s or None
        self.now = now
        self.clock = DeadlineClock()
        self._window: asyncio.Timeout | None = None
        self.on_moved: Callable[[float | None], None] | None = None  # told the new deadline (loop time)

    def start(self) -> None:
        """The run has started (`RunStarted`): the clock counts from now."""
        self.clock = self.clock.started(self.now())

    def counted_s(self) -> float:
        """The run's time so far as its deadline counts it."""
        return self.clock.counted(self.now())

    def window(self) -> asyncio.Timeout:
        """The `async with` window that raises TimeoutError once the counted time passes `limit_s` (at
        once when the start-up checks took it all)."""
        self._window = asyncio.timeout_at(self._when())
        return self._window

    def hold(self, held: bool) -> None:
        """Stop the clock (`held`) or let it go on from where it stopped; nothing before the start."""
        if self.clock.start is None:
            return
        clock = self.clock.holding(self.now()) if held else self.clock.going_on(self.now())
        if clock is self.clock:
            return
        self.clock = clock
        if self._window is not None and self.limit_s is not None:
            when = self._when()
            try:
                self._window.reschedule(when)
            except RuntimeError:  # the window is over (or expiring): nothing left to move
                return
            if self.on_moved is not None:
                self.on_moved(when)

    def _when(self) -> float | None:
        """The deadline in loop time (None: none while the run holds, or without a limit)."""
        if self.limit_s is None or self.clock.holds or self.clock.start is None:
            return None
        return asyncio.get_running_loop().time() + self.limit_s - self.counted_s()


class PauseAnnouncer:
    """The `RunControl.on_change` of a run: announces each change of its hold, moves its deadline."""

    def __init__(self, hub: EventHub, control: RunControl, deadline: RunDeadline) -> None:
        self.hub, self.control, self.deadline = hub, control, deadline
        self._span: str | None = None  # the run's span while the run is between its first and last event
        self._over = False

    def __call__(self, cause: HoldCause, node_id: str | None) -> None:
        if self._over or self._span is None:  # not started (`start` says it), or ended: nothing to say
            return
        self.deadline.hold(self.control.paused)
        if cause == "user" or cause == "breakpoint":
            self.hub.emit(RunPaused, span_id=self._span, reason=cause, node_id=node_id)
        else:
            self.hub.emit(RunResumed, span_id=self._span, mode=cause, node_id=node_id)

    def start(self, span: str) -> None:
        """`RunStarted` is out: from now on changes are announced (a hold from before, right away)."""
        self._span = span
        if self.control.paused:
            self.deadline.hold(True)
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
