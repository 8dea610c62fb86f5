"""The current schema of the trace store as SQLModel tables (used to build Core statements).

The DDL that creates these tables lives in `engine.store.migrations` (ordered steps applied to user
databases); a test checks that a freshly migrated database has exactly these tables and columns.

Invariants:
- runs have an integer key `pk` (child rows reference it: small rows) and the public text `id`;
- every run-owned table cascades on `runs.pk` delete; workflow versions are shared and never
  deleted with a run;
- JSON columns are TEXT holding compact JSON written by `engine.store.codec`;
- token deltas are not rows of `events`: they are packed per span into `delta_chunks`;
- `spans` (small rows) is WITHOUT ROWID (key stored once); tables whose rows can be large (event
  payloads with artifacts, call bodies, delta chunks, verdict claims) are rowid tables, which store
  big rows without the B-tree overflow waste WITHOUT ROWID has.
"""

from __future__ import annotations

from sqlalchemy import Table
from sqlmodel import Field, SQLModel

_NO_ROWID = {"sqlite_with_rowid": False}


class WorkflowRow(SQLModel, table=True):
    __tablename__ = "workflows"
    id: str = Field(primary_key=True)
    name: str = ""
    latest_hash: str | None = None
    created_at: float
    updated_at: float


class WorkflowVersionRow(SQLModel, table=True):
    __tablename__ = "workflow_versions"
    hash: str = Field(primary_key=True)
    workflow_id: str = Field(foreign_key="workflows.id", index=True)
    created_at: float
    doc: str


class RunRow(SQLModel, table=True):
    __tablename__ = "runs"
    pk: int | None = Field(default=None, primary_key=True)
    id: str = Field(unique=True)
    workflow_id: str = ""
    workflow_name: str = ""
    workflow_hash: str = ""
    status: str = "running"
    reason: str = ""
    started_at: float | None = None
    finished_at: float | None = None
    duration_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    inputs: str = "{}"
    outputs: str = "{}"
    settings: str = "{}"
    replay_of: str | None = None
    fork_of: str | None = None
    fork_at_seq: int | None = None
    owner_pid: int | None = None


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    seq: int = Field(primary_key=True)
    ts: float
    kind: str
    span_id: str | None = None
    parent_id: str | None = None
    payload: str


class DeltaChunkRow(SQLModel, table=True):
    __tablename__ = "delta_chunks"
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    first_seq: int = Field(primary_key=True)
    last_seq: int
    span_id: str | None = None
    parent_id: str | None = None
    data: bytes


class SpanRow(SQLModel, table=True):
    __tablename__ = "spans"
    __table_args__ = _NO_ROWID
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    span_id: str = Field(primary_key=True)
    parent_id: str | None = None
    kind: str
    name: str = ""
    node_id: str | None = None
    start_ts: float | None = None
    end_ts: float | None = None
    status: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    attrs: str = "{}"


class RecordedCallRow(SQLModel, table=True):
    __tablename__ = "recorded_calls"
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    span_id: str = Field(primary_key=True)
    call_key: str = Field(default="", index=True)
    kind: str
    node_id: str = ""
    name: str = ""
    request: str | None = None
    response: str | None = None
    error: str | None = None
    error_type: str | None = None
    started_seq: int | None = None
    finished_seq: int | None = None


class MemoryEntryRow(SQLModel, table=True):
    __tablename__ = "memory_entries"
    id: int | None = Field(default=None, primary_key=True)
    memory: str
    scope: str
    scope_id: str
    key: str
    value: str
    node_id: str = ""
    run_id: str = Field(default="", index=True)
    admitted: bool = True
    reason: str = ""
    seq: int
    ts: float


class VerdictRow(SQLModel, table=True):
    __tablename__ = "verdicts"
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    seq: int = Field(primary_key=True)
    ts: float
    span_id: str | None = None
    node_id: str
    subject_node_id: str
    decision: str
    score: float = 0.0
    reasons: str = "[]"
    claims: str = "[]"
    round: int = 0
    artifact_seq: int | None = None
    judge_model: str | None = None


def table(model: type[SQLModel]) -> Table:
    """The Core table of a model (for insert/select/update statements)."""
    result = model.__table__  # type: ignore[attr-defined]
    assert isinstance(result, Table)
    return result


WORKFLOWS = table(WorkflowRow)
WORKFLOW_VERSIONS = table(WorkflowVersionRow)
RUNS = table(RunRow)
EVENTS = table(EventRow)
DELTA_CHUNKS = table(DeltaChunkRow)
SPANS = table(SpanRow)
RECORDED_CALLS = table(RecordedCallRow)
MEMORY_ENTRIES = table(MemoryEntryRow)
VERDICTS = table(VerdictRow)
ALL_TABLES = (
    WORKFLOWS, WORKFLOW_VERSIONS, RUNS, EVENTS, DELTA_CHUNKS, SPANS, RECORDED_CALLS, MEMORY_ENTRIES, VERDICTS,
)
