"""A replay's clock and its turn-taking: what makes a strict re-run's events equal the recording's.

- `RecordedClock`: the clock readings of a recorded run by where each was taken — an event's place is
  its span, its parent span, its kind and its position among the events of that kind in that span
  (span ids say where in the graph a span is: `EventHub.new_span`). `restamp(event)` gives a replayed
  event the recorded event's readings at the same place: `ts`, and the durations measured on the
  wall clock (`RunFinished.duration_s`, a call's `latency_s`, `BudgetUpdated.elapsed_s`, a deadline's
  `BudgetExceeded.actual`). An event the recording has no place for keeps its own readings, moved to
  no earlier than the last recorded reading served (the stream's time never runs backwards).
- `Sequencer`: a served call hands its answer on (each streamed delta, its end) when the replayed
  stream reaches the seq the recorded event had — parallel branches complete in the recorded order,
  whatever order the served calls become ready in. Were the replay to wait on an event that never
  comes (it took another path), the wait ends after `STALL_S` without a new event, and the stream goes on
  in arrival order (counted in `Sequencer.stalls`).

Invariant: only a strict replay uses them; a live run and a fork keep the live clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING, Any

from engine import events as ev

if TYPE_CHECKING:
    from engine.runtime.hub import EventHub

STALL_S = 0.5
Place = tuple[str | None, str | None, str, int]
_DURATIONS: dict[type[ev.Event], tuple[str, ...]] = {
    ev.RunFinished: ("duration_s",), ev.LLMCallFinished: ("latency_s",), ev.ToolCallFinished: ("latency_s",),
    ev.BudgetUpdated: ("elapsed_s",),
}


def _readings(event: ev.Event) -> dict[str, Any]:
    names = _DURATIONS.get(type(event), ())
    if type(event) is ev.BudgetExceeded and event.budget == "deadline_s":  # type: ignore[attr-defined]
        names = ("actual",)
    out = {name: getattr(event, name) for name in names}
    out["ts"] = event.ts
    return out


class _Places:
    """Counts the events seen at each (span, parent, kind): the position part of a place."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str | None, str | None, str], int] = {}

    def of(self, event: ev.Event) -> Place:
        where = (event.span_id, event.parent_id, event.kind)
        n = self._seen[where] = self._seen.get(where, 0) + 1
        return (*where, n)


class RecordedClock:
    def __init__(self) -> None:
        self._recorded: dict[Place, dict[str, Any]] = {}
        self._places = _Places()
        self._replayed = _Places()
        self._last_ts = 0.0

    def note(self, event: ev.Event) -> None:
        """A recorded event, in seq order."""
        self._recorded[self._places.of(event)] = _readings(event)

    def restamp(self, event: ev.Event) -> ev.Event:
        readings = self._recorded.get(self._replayed.of(event))
        if readings is None:
            if event.ts >= self._last_ts:
                return event
            readings = {"ts": self._last_ts}
        self._last_ts = max(self._last_ts, readings["ts"])
        if all(getattr(event, name) == value for name, value in readings.items()):
            return event
        return dataclasses.replace(event, **readings)


class Sequencer:
    """Waits for the replayed stream to reach a recorded seq (see the module's docstring). A waiter is
    woken by the very event before its turn, one step of the loop later — as a live call's answer
    is — so what else the loop runs meanwhile (a budget's cut) lands where it landed the first time."""

    def __init__(self, hub: EventHub) -> None:
        self.hub = hub
        self.stalls = 0
        self._waiting: dict[int, list[asyncio.Future[None]]] = {}
        hub.on_event = self._on_event

    def _on_event(self) -> None:
        waiters = self._waiting.pop(self.hub.next_seq, None) if self._waiting else None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    async def turn(self, seq: int) -> None:
        """Return once the next event of the stream would get `seq` (or it is past it)."""
        loop = asyncio.get_running_loop()
        while self.hub.next_seq < seq:
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiting.setdefault(seq, []).append(waiter)
            seen = self.hub.next_seq
            timer = loop.call_later(STALL_S, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
            if self.hub.next_seq == seen:  # nothing moved for STALL_S: that turn is not coming
                self.stalls += 1
                return


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
