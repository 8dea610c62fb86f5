"""What the Runs list shows of one stored run, and how its figures are written.

`RunListing` pairs a run's `RunSummary` with its verdict counts (and its sort keys and filter text,
made with it, and for a fork the node execution it began at); `load_listings(store, limit)` reads them
(two queries whatever the number of runs, plus one per fork) and is called in a worker thread, never on
the GUI thread. The `fmt_*` helpers turn figures into cell text: a run still going (or cut off) has no duration
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
    fork_node: str = ""  # a fork's point in its source: "NODE#N", the node execution that began at fork_at_seq

    @classmethod
    def of(cls, summary: RunSummary, verdicts: dict[str, int], fork_node: str = "") -> RunListing:
        """A listing with its sort keys and filter text made now (in the worker, not on the GUI thread)."""
        s = summary
        name = s.workflow_name or s.workflow_id or "(unnamed)"
        keys = (name.lower(), s.status, s.started_at or 0.0, s.duration_s, s.tokens_in + s.tokens_out, s.cost_usd,
                sum(verdicts.values()), s.id)
        return cls(summary, verdicts, keys, " ".join((s.workflow_name, s.workflow_id, s.status, s.id)).lower(),
                   fork_node)

    @property
    def run_id(self) -> str:
        return self.summary.id

    @property
    def tokens(self) -> int:
        return self.summary.tokens_in + self.summary.tokens_out

    def marks(self) -> str:
        """"replay of 3f2a…" / "fork of 3f2a… at critic#2, seq 120" when the run came from another."""
        s = self.summary
        if s.replay_of:
            return f"replay of {s.replay_of[:8]}"
        if s.fork_of:
            where = [part for part in (self.fork_node, f"seq {s.fork_at_seq}" if s.fork_at_seq is not None else "")
                     if part]
            return f"fork of {s.fork_of[:8]}" + (f" at {', '.join(where)}" if where else "")
        return ""


def load_listings(store: TraceStore, limit: int) -> list[RunListing]:
    """The newest `limit` runs of `store` with their verdict counts (blocking: call it off the GUI thread)."""
    runs = store.list_runs(limit=limit)
    counts = store.verdict_counts(r.id for r in runs)
    nodes = fork_nodes(store, runs)
    return [RunListing.of(r, counts.get(r.id, {}), nodes.get(r.id, "")) for r in runs]


_FORK_NODES: dict[tuple[str, str, int], str] = {}  # (db path, source, seq) -> "NODE#N": a recording never changes


def fork_nodes(store: TraceStore, runs: list[RunSummary]) -> dict[str, str]:
    """fork run id -> "NODE#N" where it began in its source (read once per fork, then remembered)."""
    from engine.store.lineage import fork_origins

    forks = {r.id: (str(store.path), r.fork_of, r.fork_at_seq) for r in runs if r.fork_of and r.fork_at_seq is not None}
    missing = [(source, seq) for key in forks.values() if key not in _FORK_NODES for _path, source, seq in [key]]
    if missing:
        if len(_FORK_NODES) > 100_000:
            _FORK_NODES.clear()
        found = fork_origins(store, missing)
        for source, seq in missing:
            node = found.get((source, seq))
            _FORK_NODES[(str(store.path), source, seq)] = f"{node[0]}#{node[1]}" if node else ""
    return {run_id: _FORK_NODES.get(key, "") for run_id, key in forks.items()}


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
