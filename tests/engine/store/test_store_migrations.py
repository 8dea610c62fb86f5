"""Schema versions: a hand-built v1 database upgrades to current; newer or foreign files are refused."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from engine import events as ev
from engine.store import SCHEMA_VERSION, StoreOpenError, TraceStore, default_db_path
from engine.store import migrations as mig
from engine.store.tables import ALL_TABLES

# The v1 schema as released: token deltas were ordinary rows of `events`.
V1_SCHEMA = """
CREATE TABLE workflows (id TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL DEFAULT '', latest_hash TEXT,
    created_at REAL NOT NULL, updated_at REAL NOT NULL);
CREATE TABLE workflow_versions (hash TEXT NOT NULL PRIMARY KEY, workflow_id TEXT NOT NULL REFERENCES workflows(id),
    created_at REAL NOT NULL, doc TEXT NOT NULL);
CREATE INDEX ix_workflow_versions_workflow_id ON workflow_versions(workflow_id);
CREATE TABLE runs (pk INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, workflow_id TEXT NOT NULL DEFAULT '',
    workflow_name TEXT NOT NULL DEFAULT '', workflow_hash TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'running', reason TEXT NOT NULL DEFAULT '', started_at REAL, finished_at REAL,
    duration_s REAL NOT NULL DEFAULT 0, tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0, inputs TEXT NOT NULL DEFAULT '{}', outputs TEXT NOT NULL DEFAULT '{}',
    settings TEXT NOT NULL DEFAULT '{}', replay_of TEXT, fork_of TEXT, fork_at_seq INTEGER, owner_pid INTEGER);
CREATE INDEX ix_runs_workflow ON runs(workflow_id, pk);
CREATE INDEX ix_runs_status ON runs(status);
CREATE TABLE events (run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, seq INTEGER NOT NULL,
    ts REAL NOT NULL, kind TEXT NOT NULL, span_id TEXT, parent_id TEXT, payload TEXT NOT NULL,
    PRIMARY KEY (run_pk, seq));
CREATE TABLE spans (run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, span_id TEXT NOT NULL,
    parent_id TEXT, kind TEXT NOT NULL, name TEXT NOT NULL DEFAULT '', node_id TEXT, start_ts REAL, end_ts REAL,
    status TEXT NOT NULL DEFAULT '', tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0, attrs TEXT NOT NULL DEFAULT '{}', PRIMARY KEY (run_pk, span_id)) WITHOUT ROWID;
CREATE TABLE recorded_calls (run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE,
    span_id TEXT NOT NULL, call_key TEXT NOT NULL DEFAULT '', kind TEXT NOT NULL, node_id TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '', request TEXT, response TEXT, error TEXT, error_type TEXT,
    started_seq INTEGER, finished_seq INTEGER, PRIMARY KEY (run_pk, span_id));
CREATE INDEX ix_recorded_calls_call_key ON recorded_calls(call_key);
CREATE TABLE memory_entries (id INTEGER PRIMARY KEY, memory TEXT NOT NULL, scope TEXT NOT NULL,
    scope_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, node_id TEXT NOT NULL DEFAULT '',
    run_id TEXT NOT NULL DEFAULT '', admitted BOOLEAN NOT NULL DEFAULT 1, reason TEXT NOT NULL DEFAULT '',
    seq INTEGER NOT NULL, ts REAL NOT NULL);
CREATE INDEX ix_memory_entries_lookup ON memory_entries(memory, scope, scope_id, key);
CREATE INDEX ix_memory_entries_run_id ON memory_entries(run_id);
CREATE TABLE verdicts (run_pk INTEGER NOT NULL REFERENCES runs(pk) ON DELETE CASCADE, seq INTEGER NOT NULL,
    ts REAL NOT NULL, span_id TEXT, node_id TEXT NOT NULL, subject_node_id TEXT NOT NULL, decision TEXT NOT NULL,
    score REAL NOT NULL DEFAULT 0, reasons TEXT NOT NULL DEFAULT '[]', claims TEXT NOT NULL DEFAULT '[]',
    round INTEGER NOT NULL DEFAULT 0, artifact_seq INTEGER, judge_model TEXT,
    PRIMARY KEY (run_pk, seq));
PRAGMA application_id = 1414678849;
PRAGMA user_version = 1;
"""


def build_v1(path: Path) -> list[ev.Event]:
    """A v1 database written by hand, holding one finished run with two interleaved streaming calls."""
    expected: list[ev.Event] = [ev.RunStarted(run_id="old", seq=1, ts=0.0, span_id="r", workflow_id="wf",
                                              workflow_name="Old", workflow_hash="h1")]
    rows = [(1, 0.0, "run_started", "r", None, json.dumps({"workflow_id": "wf", "workflow_name": "Old",
                                                           "workflow_hash": "h1"}))]
    for seq in range(2, 12):
        span = "a" if seq % 2 else "b"
        ts = seq * 0.1234567891
        expected.append(ev.LLMTokenDelta(run_id="old", seq=seq, ts=ts, span_id=span, parent_id="r", text=f"t{seq}é"))
        rows.append((seq, ts, "llm_delta", span, "r", json.dumps({"text": f"t{seq}é"})))
    expected.append(ev.RunFinished(run_id="old", seq=12, ts=2.0, span_id="r", status="succeeded", tokens_in=5))
    rows.append((12, 2.0, "run_finished", "r", None, json.dumps({"status": "succeeded", "tokens_in": 5})))
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute("INSERT INTO workflows VALUES ('wf', 'Old', 'h1', 1.0, 1.0)")
    conn.execute("INSERT INTO workflow_versions VALUES ('h1', 'wf', 1.0, '{\"id\":\"wf\"}')")
    conn.execute("INSERT INTO runs (pk, id, workflow_id, workflow_name, workflow_hash, status, tokens_in) "
                 "VALUES (1, 'old', 'wf', 'Old', 'h1', 'succeeded', 5)")
    conn.executemany("INSERT INTO events VALUES (1, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return expected


def test_hand_built_v1_database_is_upgraded_to_current(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    expected = build_v1(path)
    with TraceStore(path) as store:
        assert store.migrated_from == 1
        assert list(store.iter_events("old")) == expected
        assert store.workflow_version("h1") == {"id": "wf"}
        assert store.get_run("old").tokens_in == 5  # type: ignore[union-attr]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"events", "delta_chunks", "spans", "recorded_calls"}.isdisjoint(tables)
    assert conn.execute("SELECT count(*), sum(count) FROM event_segments").fetchone() == (1, len(expected))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with TraceStore(path) as again:
        assert again.migrated_from is None


def test_a_failing_upgrade_leaves_the_database_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v1.db"
    build_v1(path)

    def explode(conn: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(mig, "MIGRATIONS", (*mig.MIGRATIONS, mig.Migration(SCHEMA_VERSION + 1, "boom", explode)))
    monkeypatch.setattr(mig, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StoreOpenError, match=r"from schema version 1 failed .*disk on fire.*not changed"):
        TraceStore(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert conn.execute("SELECT count(*) FROM events WHERE kind = 'llm_delta'").fetchone()[0] == 10
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'delta_chunks'").fetchone()[0] == 0
    conn.close()


def test_database_from_a_newer_triadic_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future (x)")
    conn.execute(f"PRAGMA application_id = {mig.APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreOpenError, match=rf"newer Triadic \(schema version {SCHEMA_VERSION + 5}\)"):
        TraceStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"not a database at all" * 100, None])
def test_files_that_are_not_triadic_stores_are_refused(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "other.db"
    if content is None:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE customers (id INTEGER)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    with pytest.raises(StoreOpenError, match="not a"):
        TraceStore(path)
    assert path.read_bytes() == before


def test_fresh_database_matches_the_sqlmodel_tables(tmp_path: Path) -> None:
    TraceStore(tmp_path / "fresh.db").close()
    inspector = inspect(create_engine(f"sqlite:///{tmp_path / 'fresh.db'}"))
    assert set(inspector.get_table_names()) == {t.name for t in ALL_TABLES}
    for table in ALL_TABLES:
        assert [c["name"] for c in inspector.get_columns(table.name)] == [c.name for c in table.columns]
        assert {c["name"] for c in inspector.get_columns(table.name) if c["primary_key"]} == \
            {c.name for c in table.primary_key.columns}
    conn = sqlite3.connect(tmp_path / "fresh.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_default_db_path_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRIADIC_DB", str(tmp_path / "mine.db"))
    assert default_db_path() == tmp_path / "mine.db"
    monkeypatch.delenv("TRIADIC_DB")
    assert default_db_path().name == "triadic.db" and "riadic" in str(default_db_path().parent)


def test_store_in_a_new_directory_is_created(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "a" / "b" / "t.db") as store:
        assert store.list_runs() == []
