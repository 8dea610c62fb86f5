"""`PlaybackMarks`: where in a run the things a person steps to happen — spans starting, verdicts,
errors, human answers — as sorted seq lists, for the scrubber's markers and its "next / previous" steps.

Built from the run's events in one pass (`add`, incremental for a live run); `next_seq(kind, seq)` /
`previous_seq(kind, seq)` find the neighbour by bisection. Qt-free.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from engine import events as ev

SPAN, VERDICT, ERROR, HUMAN = "span", "verdict", "error", "human"
KINDS = (SPAN, VERDICT, ERROR, HUMAN)


def mark_kind(event: ev.Event) -> str | None:
    """The kind of mark `event` is (None: not one)."""
    if isinstance(event, ev.LLMCallStarted | ev.ToolCallStarted):
        return SPAN
    if isinstance(event, ev.NodeStateChanged):
        if event.state == "failed":
            return ERROR
        return SPAN if event.state == "running" and event.span_id else None
    if isinstance(event, ev.VerdictIssued):
        return VERDICT
    if isinstance(event, ev.ErrorRaised | ev.BudgetExceeded | ev.ReplayDiverged):
        return ERROR
    if isinstance(event, ev.LLMCallFinished | ev.ToolCallFinished):
        return ERROR if event.error else None
    if isinstance(event, ev.HumanDecisionMade):
        return HUMAN
    return None


# kinds of event that are always a mark of one kind, and those whose fields decide (`mark_kind`)
_ALWAYS: dict[type[ev.Event], str] = {
    ev.LLMCallStarted: SPAN, ev.ToolCallStarted: SPAN, ev.VerdictIssued: VERDICT, ev.ErrorRaised: ERROR,
    ev.BudgetExceeded: ERROR, ev.ReplayDiverged: ERROR, ev.HumanDecisionMade: HUMAN,
}
_DECIDED_BY_FIELDS = frozenset({ev.NodeStateChanged, ev.LLMCallFinished, ev.ToolCallFinished})


class PlaybackMarks:
    def __init__(self) -> None:
        self.seqs: dict[str, list[int]] = {kind: [] for kind in KINDS}
        self.times: dict[str, list[float]] = {kind: [] for kind in KINDS}  # each mark's event time (ts)

    def add(self, events: Iterable[ev.Event]) -> None:
        seqs, times = self.seqs, self.times
        always, decided = _ALWAYS.get, _DECIDED_BY_FIELDS
        for event in events:  # most events (token deltas) are none: one dict lookup and a set test each
            cls = type(event)
            kind = always(cls)
            if kind is None and cls in decided:
                kind = mark_kind(event)
            if kind is not None:
                seqs[kind].append(event.seq)
                times[kind].append(event.ts)

    def next_seq(self, kind: str, seq: int) -> int | None:
        """The first mark of `kind` after `seq` (None: none)."""
        marks = self.seqs[kind]
        i = bisect_right(marks, seq)
        return marks[i] if i < len(marks) else None

    def previous_seq(self, kind: str, seq: int) -> int | None:
        """The last mark of `kind` before `seq` (None: none)."""
        marks = self.seqs[kind]
        i = bisect_left(marks, seq)
        return marks[i - 1] if i > 0 else None
