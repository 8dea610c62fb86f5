"""The background writer: batching, flush, failures that never lose stored data, thread safety."""

from __future__ import annotations

import math
import threading

import pytest
from store_samples import Stream, renumber, triad_run, write_all

from engine import events as ev
from engine.store import TraceStore


def test_flush_makes_appended_events_visible_and_close_is_idempotent(store: TraceStore) -> None:
    events = triad_run(finish=False)
    writer = store.writer(flush_interval_s=0.1)
    for event in events:
        writer.append(event)
    assert writer.flush(timeout=10)
    assert list(store.iter_events("run-0001")) == events
    assert store.get_run("run-0001").status == "running"  # type: ignore[union-attr]
    assert store.get_run("run-0001").tokens_in == 48  # type: ignore[union-attr]  # live totals
    writer.close()
    writer.close()
    assert writer.events_stored == len(events) and writer.errors == []


def test_bad_payload_is_reported_and_the_rest_of_the_batch_lands(store: TraceStore) -> None:
    bad = ev.NodeOutput(run_id="run-0001", seq=0, ts=1.0, node_id="x", port="p", value=object())
    nan = ev.BudgetUpdated(run_id="run-0001", seq=0, ts=1.0, tokens=1, cost_usd=float("nan"), elapsed_s=0)
    events = renumber([*triad_run()[:10], bad, nan, *triad_run()[10:]])
    errors = write_all(store, events, batch_size=5000)
    assert len(errors) == 1
    assert "seq 11 (node_output)" in errors[0] and "not stored" in errors[0] and "object" in errors[0]
    stored = list(store.iter_events("run-0001"))
    assert stored[:10] == events[:10] and stored[11:] == events[12:]
    assert isinstance(stored[10], ev.BudgetUpdated) and math.isnan(stored[10].cost_usd)  # NaN is kept


def test_a_repeated_event_is_refused_and_every_good_event_of_the_batch_lands(store: TraceStore) -> None:
    events = triad_run()
    write_all(store, events[:5])
    duplicate = events[2]  # same (run, seq) again, in a later batch
    errors = write_all(store, [*events[5:20], duplicate, *events[20:]], batch_size=5000)
    assert len(errors) == 1 and "seq 3" in errors[0] and "a repeat, or out of order" in errors[0]
    assert list(store.iter_events("run-0001")) == events
    assert write_all(store, [events[7]]) != []  # known from the database by a new writer too
    assert store.event_count("run-0001") == len(events)


def test_append_after_close_is_reported_not_raised(store: TraceStore) -> None:
    writer = store.writer()
    writer.close()
    writer.append(triad_run()[0])
    assert writer.errors and "closed" in writer.errors[0]
    assert writer.flush(timeout=1) is False


def test_writer_settings_are_checked(store: TraceStore) -> None:
    with pytest.raises(ValueError, match="flush_interval_s"):
        store.writer(flush_interval_s=0.5)
    with pytest.raises(ValueError, match="batch_size"):
        store.writer(batch_size=0)


def test_concurrent_appends_from_several_threads(store: TraceStore) -> None:
    runs = [triad_run(f"thread-{i}") for i in range(4)]
    writer = store.writer(batch_size=50)

    def produce(events: list[ev.Event]) -> None:
        for event in events:
            writer.append(event)

    threads = [threading.Thread(target=produce, args=(run,)) for run in runs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    assert writer.errors == []
    for i, run in enumerate(runs):
        assert list(store.iter_events(f"thread-{i}")) == run


def test_events_of_a_run_without_run_started_are_kept(store: TraceStore) -> None:
    s = Stream("orphan")
    s.add(ev.LogMessage, message="hello")
    assert write_all(store, s.events) == []
    run = store.get_run("orphan")
    assert run is not None and "without a RunStarted" in run.reason
    assert list(store.iter_events("orphan")) == s.events


def test_deltas_split_across_batches_still_round_trip(store: TraceStore) -> None:
    events = triad_run()
    assert write_all(store, events, batch_size=3) == []
    assert list(store.iter_events("run-0001")) == events


def test_jobs_run_in_queue_order_and_their_failures_are_recorded(store: TraceStore) -> None:
    events = triad_run(finish=False)
    writer = store.writer(flush_interval_s=0.1)
    seen: list[int] = []
    for event in events[:5]:
        writer.append(event)
    writer.call_in_order(lambda: seen.append(store.event_count("run-0001")), "count")
    writer.call_in_order(lambda: 1 / 0, "a job that fails")
    for event in events[5:]:
        writer.append(event)
    writer.close()
    assert seen == [5]  # it ran after the five events before it were committed, before the others
    assert writer.errors == ["a job that fails: ZeroDivisionError: division by zero"]
    assert writer.events_stored == len(events)
    writer.call_in_order(lambda: seen.append(-1), "after close")
    assert seen == [5] and writer.errors[-1] == "after close: the trace writer is closed"


def test_a_batch_larger_than_a_segment_lands_whole_and_in_order(store: TraceStore) -> None:
    from engine.store.segments import SEGMENT_EVENTS

    s = Stream("big")
    s.add(ev.RunStarted, span_id="root", workflow_id="w", workflow_name="W", workflow_hash="h")
    for i in range(SEGMENT_EVENTS + 55):  # one full segment and a remainder
        s.add(ev.LogMessage, span_id="root", message=f"line {i}")
        s.add(ev.LLMTokenDelta, span_id=f"llm{i}", parent_id="root", text=f"t{i}")
    writer = store.writer(batch_size=100_000)
    writer.append_many(s.events)
    writer.close()
    assert writer.errors == [] and writer.events_stored == len(s.events)
    assert list(store.iter_events("big")) == s.events
    assert list(store.iter_events("big", from_seq=1500, to_seq=1600)) == s.events[1499:1600]
    assert store.event_count("big") == len(s.events)


def test_a_database_error_keeps_every_good_event_of_the_batch(store: TraceStore,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from engine.store.batch import BatchWriter

    events = triad_run()
    poison = events[7]
    execute = BatchWriter._execute

    def failing(self: BatchWriter, conn: object, rows: object, segments: list[tuple[object, ...]]) -> None:
        if any(first <= poison.seq <= last for _, first, last, *_ in segments):
            raise sqlite3.OperationalError("disk I/O error")  # as the database would fail a statement
        execute(self, conn, rows, segments)  # type: ignore[arg-type]

    monkeypatch.setattr(BatchWriter, "_execute", failing)
    errors = write_all(store, events, batch_size=5000)
    assert len(errors) == 1 and "seq 8" in errors[0] and "disk I/O error" in errors[0]
    assert list(store.iter_events("run-0001")) == events[:7] + events[8:]


def test_segment_rows_hold_the_bounds_of_their_events(store: TraceStore) -> None:
    import sqlite3

    events = triad_run()
    writer = store.writer(batch_size=100_000)
    writer.append_many(events[:30])  # a whole hand-off (taken at once)
    writer.flush()
    for event in [*events[30:40], events[35], *events[40:]]:  # one at a time, a repeat among them
        writer.append(event)
    writer.close()
    assert len(writer.errors) == 1 and "a repeat, or out of order" in writer.errors[0]
    conn = sqlite3.connect(store.path)
    rows = conn.execute("SELECT first_seq, last_seq, count, last_ts FROM event_segments ORDER BY first_seq").fetchall()
    conn.close()
    assert sum(count for _, _, count, _ in rows) == len(events) and len(rows) >= 2
    by_seq = {event.seq: event for event in events}
    for first, last, count, last_ts in rows:
        held = [by_seq[seq] for seq in range(first, last + 1)]
        assert count == len(held) and last_ts == max(event.ts for event in held)
