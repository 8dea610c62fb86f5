"""What the trace store's queries return: frozen dataclasses (never ORM objects), and its errors.

Invariants: every record is immutable and holds plain Python values (JSON columns are decoded);
times named `*_at` are wall-clock epoch seconds, times named `*_ts` are seconds since the run
started (the events' `ts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


class StoreOpenError(Exception):
    """The database cannot be opened: not a Triadic store, from a newer Triadic, unreadable."""


class RunExistsError(ValueError):
    """The store already has a run with this id (an import of a run it holds)."""

    def __init__(self, run_id: str) -> None:
        super().__init__(f"the store already has run {run_id}")
        self.run_id = run_id


class AmbiguousRunIdError(ValueError):
    """A run id prefix matches several runs."""

    def __init__(self, prefix: str, candidates: list[str]) -> None:
        shown = ", ".join(candidates[:5]) + (", ..." if len(candidates) > 5 else "")
        super().__init__(f"run id prefix {prefix!r} matches {len(candidates)} runs ({shown}); give more characters")
        self.prefix = prefix
        self.candidates = candidates


@dataclass(frozen=True, slots=True)
class RunSummary:
    id: str
    workflow_id: str
    workflow_name: str
    workflow_hash: str
    status: str
    reason: str
    started_at: float | None
    finished_at: float | None
    duration_s: float
    tokens_in: int
    tokens_out: int
    cost_usd: float
    inputs: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    replay_of: str | None = None
    fork_of: str | None = None
    fork_at_seq: int | None = None


@dataclass(frozen=True, slots=True)
class SpanRecord:
    run_id: str
    span_id: str
    parent_id: str | None
    kind: Literal["run", "node", "llm", "tool"] | str
    name: str
    node_id: str | None
    start_ts: float | None
    end_ts: float | None
    status: str
    tokens_in: int
    tokens_out: int
    cost_usd: float
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VerdictRecord:
    run_id: str
    seq: int
    ts: float
    span_id: str | None
    node_id: str
    subject_node_id: str
    decision: str
    score: float
    reasons: list[str]
    claims: list[dict[str, Any]]
    round: int
    artifact_seq: int | None
    judge_model: str | None


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One LLM or tool call as replay serves it back: the request asked and the response given.

    For LLM calls `request` is `LLMRequest.to_record()` and `response` the `LLMCallFinished.response`
    dict; for tool calls `request` is the arguments dict and `response` the tool's result.
    `response` is None (and `finished_seq` None) for a call that never finished.
    """

    run_id: str
    span_id: str
    call_key: str
    kind: Literal["llm", "tool"] | str
    node_id: str
    name: str
    request: Any
    response: Any
    error: str | None
    error_type: str | None
    started_seq: int | None
    finished_seq: int | None
