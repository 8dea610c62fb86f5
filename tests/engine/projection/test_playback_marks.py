"""The scrubber's marks: every span start, verdict, error and human answer of a run, and the neighbours
a step goes to."""

from __future__ import annotations

from engine import events as ev
from engine.projection.marks import ERROR, SPAN, VERDICT, PlaybackMarks, mark_kind
from tests.perf.synthetic_run import synthetic_run

EVENTS = synthetic_run("marks", executions=200, lanes=5)


def test_the_marks_are_what_each_event_is() -> None:
    marks = PlaybackMarks()
    for start in range(0, len(EVENTS), 333):  # added as a live run's batches arrive
        marks.add(EVENTS[start:start + 333])
    for kind in (SPAN, VERDICT, ERROR):
        assert marks.seqs[kind] == [e.seq for e in EVENTS if mark_kind(e) == kind]
    assert marks.seqs[VERDICT] == [e.seq for e in EVENTS if isinstance(e, ev.VerdictIssued)]
    assert all(e.seq in marks.seqs[ERROR] for e in EVENTS
               if isinstance(e, ev.NodeStateChanged) and e.state == "failed")


def test_next_and_previous_find_the_neighbouring_mark() -> None:
    marks = PlaybackMarks()
    marks.add(EVENTS)
    verdicts = marks.seqs[VERDICT]
    assert marks.next_seq(VERDICT, 0) == verdicts[0]
    assert marks.next_seq(VERDICT, verdicts[0]) == verdicts[1]
    assert marks.previous_seq(VERDICT, verdicts[1]) == verdicts[0]
    assert marks.previous_seq(VERDICT, verdicts[0]) is None
    assert marks.next_seq(VERDICT, verdicts[-1]) is None
