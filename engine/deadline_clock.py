"""`DeadlineClock`: a run's time as its `deadline_s` counts it — the one clock the engine and every view read.

The count starts at the run's start (`RunStarted`) and leaves out the time the run holds (paused, at a
breakpoint, after a step until "resume"), from wherever a hold begins — during the start-up checks
too. All readings are run time: seconds on the clock the events' `ts` are read on (`EventHub.elapsed`).
The engine keeps one, fed with its live clock as the holds happen (`engine.runtime.pausing`), and checks
the deadline and says `BudgetUpdated.elapsed_s` with it; `RunProjection` keeps one fed with the events'
`ts` (`RunStarted`, `RunPaused`, `RunResumed`), so a stored run's gauge reads what the engine counted.

Invariants: a clock never changes (each step returns a new one, so a projection's copy shares it);
`counted(now) + held(now) == now - start` while `now` is after the last step, and `counted` never
goes back; before the start nothing is counted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class DeadlineClock:
    start: float | None = None  # run time of RunStarted (None: not started)
    held_before: float = 0.0  # seconds in the holds that ended
    held_since: float | None = None  # run time the current hold began (None: not holding)

    def started(self, at: float) -> DeadlineClock:
        return replace(self, start=at)

    def holding(self, at: float) -> DeadlineClock:
        """The run holds from `at` on (no change when it already holds)."""
        return self if self.held_since is not None else replace(self, held_since=max(at, self.start or 0.0))

    def going_on(self, at: float) -> DeadlineClock:
        """The run goes on from `at` (no change when it does not hold)."""
        if self.held_since is None:
            return self
        return replace(self, held_before=self.held_before + max(at - self.held_since, 0.0), held_since=None)

    @property
    def holds(self) -> bool:
        return self.held_since is not None

    def held(self, now: float) -> float:
        """Seconds held since the start, at run time `now`."""
        return self.held_before + (max(now - self.held_since, 0.0) if self.held_since is not None else 0.0)

    def counted(self, now: float) -> float:
        """Seconds the deadline has counted at run time `now`: since the start, less the time held."""
        if self.start is None:
            return 0.0
        return max(now - self.start - self.held(now), 0.0)
