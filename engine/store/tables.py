"""The current schema of the trace store as SQLModel tables (used to build Core statements).

The DDL that creates these tables lives in `engine.store.migrations` (ordered steps applied to user
databases); a test checks that a freshly migrated database has exactly these tables and columns.

Invariants:
- runs have an integer key `pk` (child rows reference it: small rows) and the public text `id`;
- every run-owned table cascades on `runs.pk` delete; workflow versions are shared and never
  deleted with a run;
- JSON columns are TEXT holding compact JSON written by `engine.store.codec`;
- events (token deltas included) are not rows: each batch of a run's events is one `event_segments`
  row (`engine.store.segments`); spans and recorded calls are derived from the events on read;
- tables whose rows can be large (segments, verdict claims, memory values) are rowid tables, which
  store big rows without the B-tree overflow waste WITHOUT ROWID has.
"""

from __future__ import annotations

from sqlalchemy import Table
from sqlmodel import Field, SQLModel


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
    doc: bytes  # `engine.store.documents` (JSON text in stores written before it)


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


class EventSegmentRow(SQLModel, table=True):
    __tablename__ = "event_segments"
    run_pk: int = Field(foreign_key="runs.pk", primary_key=True, ondelete="CASCADE")
    first_seq: int = Field(primary_key=True)
    last_seq: int
    count: int
    last_ts: float
    data: bytes


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
EVENT_SEGMENTS = table(EventSegmentRow)
MEMORY_ENTRIES = table(MemoryEntryRow)
VERDICTS = table(VerdictRow)
ALL_TABLES = (
    WORKFLOWS, WORKFLOW_VERSIONS, RUNS, EVENT_SEGMENTS, MEMORY_ENTRIES, VERDICTS,
)
