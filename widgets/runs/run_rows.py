"""What the Runs list shows of one stored run, and how its figures are written.

`RunListing` pairs a run's `RunSummary` with its verdict counts (and its sort keys and filter text,
made with it); `load_listings(store, limit)` reads both (two queries, whatever the number of runs) and is called in a worker thread, never on the
GUI thread. The `fmt_*` helpers turn figures into cell text: a run still going (or cut off) has no duration
("—"), a cost under a dollar keeps four decimals (never a misleading "$0.00").
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store's package loads SQLAlchemy: not at the window's start-up
    from engine.store import RunSummary, TraceStore

SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class RunListing:
    summary: RunSummary
    verdicts: dict[str, int] = field(default_factory=dict)
    sort_keys: tuple[Any, ...] = ()  # per column (workflow, status, started, …): what it sorts by
    haystack: str = ""  # what the text filter searches: workflow name and id, status, run id (lower case)

    @classmethod
    def of(cls, summary: RunSummary, verdicts: dict[str, int]) -> RunListing:
        """A listing with its sort keys and filter text made now (in the worker, not on the GUI thread)."""
        s = summary
        name = s.workflow_name or s.workflow_id or "(unnamed)"
        keys = (name.lower(), s.status, s.started_at or 0.0, s.duration_s, s.tokens_in + s.tokens_out, s.cost_usd,
                sum(verdicts.values()), s.id)
        return cls(summary, verdicts, keys, " ".join((s.workflow_name, s.workflow_id, s.status, s.id)).lower())

    @property
    def run_id(self) -> str:
        return self.summary.id

    @property
    def tokens(self) -> int:
        return self.summary.tokens_in + self.summary.tokens_out

    def marks(self) -> str:
        """"replay of 3f2a…" / "fork of 3f2a… at #120" when the run came from another."""
        s = self.summary
        if s.replay_of:
            return f"replay of {s.replay_of[:8]}"
        if s.fork_of:
            at = f" at #{s.fork_at_seq}" if s.fork_at_seq is not None else ""
            return f"fork of {s.fork_of[:8]}{at}"
        return ""


def load_listings(store: TraceStore, limit: int) -> list[RunListing]:
    """The newest `limit` runs of `store` with their verdict counts (blocking: call it off the GUI thread)."""
    runs = store.list_runs(limit=limit)
    counts = store.verdict_counts(r.id for r in runs)
    return [RunListing.of(r, counts.get(r.id, {})) for r in runs]


def fmt_verdicts(counts: dict[str, int]) -> str:
    return SEPARATOR.join(f"{n} {decision}" for decision, n in counts.items())


def fmt_started(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts)) if ts else ""


def fmt_duration(summary: RunSummary) -> str:
    if summary.status == "running" or summary.duration_s <= 0:
        return "—"
    seconds = summary.duration_s
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


def fmt_tokens(tokens: int) -> str:
    return f"{tokens:,}".replace(",", " ") if tokens else "0"


def fmt_cost(cost: float) -> str:
    if cost <= 0:
        return "$0"
    if cost < 1:
        return f"${cost:.4f}"
    return f"${cost:.2f}"
