"""A schema-2 database (events as rows, call bodies in recorded_calls, token deltas in chunks) upgrades to
event segments with every event intact, call bodies restored, and spans and calls derived as before."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from test_store_migrations import V1_SCHEMA

from engine import events as ev
from engine.store import TraceStore, call_key
from engine.store.legacy_v2 import pack_deltas

V2_CHUNKS = """CREATE TABLE delta_chunks (run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, span_id TEXT, parent_id TEXT, data BLOB NOT NULL,
    PRIMARY KEY (run_pk, first_seq));
PRAGMA user_version = 2;"""
REQUEST = {"model": "sim/a", "messages": [{"role": "user", "content": "hi ✓"}], "seed": 3}
RESPONSE = {"content": "yes sir", "model": "sim/a", "tokens_in": 4, "tokens_out": 2}


def build_v2(path: Path) -> list[ev.Event]:
    r = dict(run_id="old", parent_id=None)
    c = dict(run_id="old", span_id="c", parent_id="n")
    expected: list[ev.Event] = [
        ev.RunStarted(**r, seq=1, ts=0.0, span_id="r", workflow_id="wf", workflow_name="Old", workflow_hash="h1"),
        ev.NodeStateChanged(run_id="old", seq=2, ts=0.1, span_id="n", parent_id="r", node_id="x", state="running"),
        ev.LLMCallStarted(**c, seq=3, ts=0.2, node_id="x", model="sim/a", request=REQUEST),
        ev.LLMTokenDelta(**c, seq=4, ts=0.25, text="yes "),
        ev.LLMTokenDelta(**c, seq=5, ts=0.2512345678901, text="sir"),
        ev.LLMCallFinished(**c, seq=6, ts=0.3, node_id="x", model="sim/a", content="yes sir", tokens_in=4,
                           tokens_out=2, latency_s=0.1, response=RESPONSE),
        ev.NodeStateChanged(run_id="old", seq=7, ts=0.4, span_id="n", parent_id="r", node_id="x", state="done"),
        ev.RunFinished(**r, seq=8, ts=0.5, span_id="r", status="succeeded", tokens_in=4, tokens_out=2),
    ]
    rows = [  # payloads as schema 2 wrote them: defaults dropped, call bodies cut out
        (1, 0.0, "run_started", "r", None, {"workflow_id": "wf", "workflow_name": "Old", "workflow_hash": "h1"}),
        (2, 0.1, "node_state", "n", "r", {"node_id": "x", "state": "running"}),
        (3, 0.2, "llm_started", "c", "n", {"node_id": "x", "model": "sim/a"}),
        (6, 0.3, "llm_finished", "c", "n", {"node_id": "x", "model": "sim/a", "tokens_in": 4, "tokens_out": 2,
                                            "latency_s": 0.1}),
        (7, 0.4, "node_state", "n", "r", {"node_id": "x", "state": "done"}),
        (8, 0.5, "run_finished", "r", None, {"status": "succeeded", "tokens_in": 4, "tokens_out": 2}),
    ]
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA + V2_CHUNKS)
    conn.execute("INSERT INTO workflows VALUES ('wf', 'Old', 'h1', 1.0, 1.0)")
    conn.execute("INSERT INTO runs (pk, id, workflow_id, status) VALUES (1, 'old', 'wf', 'succeeded')")
    conn.executemany("INSERT INTO events VALUES (1, ?, ?, ?, ?, ?, ?)",
                     [(*row[:5], json.dumps(row[5])) for row in rows])
    conn.execute("INSERT INTO recorded_calls (run_pk, span_id, call_key, kind, node_id, name, request, response,"
                 " started_seq, finished_seq) VALUES (1, 'c', 'k', 'llm', 'x', 'sim/a', ?, ?, 3, 6)",
                 (json.dumps(REQUEST), json.dumps(RESPONSE)))
    conn.execute("INSERT INTO delta_chunks VALUES (1, 4, 5, 'c', 'n', ?)",
                 (pack_deltas([0, 1], [0.25, 0.2512345678901], ["yes ", "sir"]),))
    conn.commit()
    conn.close()
    return expected


def test_a_v2_database_keeps_every_event_and_call_body(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    expected = build_v2(path)
    with TraceStore(path) as store:
        assert store.migrated_from == 2
        assert list(store.iter_events("old")) == expected
        assert store.event_count("old") == len(expected)
        (call,) = store.recorded_calls("old")
        assert (call.request, call.response, call.started_seq, call.finished_seq) == (REQUEST, RESPONSE, 3, 6)
        assert call.call_key == call_key("llm", "sim/a", REQUEST)
        spans = {s.span_id: s for s in store.spans("old")}
        assert spans["n"].status == "done" and spans["n"].tokens_in == 4 and spans["c"].status == "ok"
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
