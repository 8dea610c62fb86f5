"""Store housekeeping: which runs a prune removes, and removing them.

`plan_prune(store, older_than_days=, keep=)` picks the runs that meet every rule given: started more
than `older_than_days` ago, and beyond the newest `keep` runs of their workflow. It never picks a run
that is still running (live in this or another process), nor a run that a replay or fork which stays
depends on: such a source is kept and named in `kept_as_source` (its descendants keep their link and
stay under it in the Runs list). A source whose descendants are all pruned with it goes too. The plan
is a preview (`--dry-run`, the Prune dialog's count); `apply_prune(store, plan)` deletes its runs in
one transaction. Space comes back to the file system with `store.vacuum()`.

Engine only: no Qt.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.store.lineage import source_links

if TYPE_CHECKING:
    from engine.store.store import TraceStore

DAY_S = 86_400.0


class PruneRuleError(ValueError):
    """A prune rule that makes no sense (negative days, keep below zero, no rule at all)."""


@dataclass(frozen=True, slots=True)
class PrunePlan:
    delete: list[str] = field(default_factory=list)  # run ids, oldest first
    kept_live: list[str] = field(default_factory=list)  # matched the rules but still running
    kept_as_source: list[str] = field(default_factory=list)  # matched, but a kept replay / fork descends from it

    def describe(self) -> str:
        n = len(self.delete)
        lines = [f"{n} run{'s' if n != 1 else ''} to remove"]
        if self.kept_live:
            lines.append(f"{len(self.kept_live)} kept: still running")
        if self.kept_as_source:
            lines.append(f"{len(self.kept_as_source)} kept: replays or forks that stay descend from them "
                         "(they keep their lineage)")
        return "; ".join(lines)


def plan_prune(store: TraceStore, *, older_than_days: float | None = None, keep: int | None = None,
               now: float | None = None) -> PrunePlan:
    if older_than_days is None and keep is None:
        raise PruneRuleError("prune needs a rule: --older-than DAYS and/or --keep N")
    if older_than_days is not None and older_than_days < 0:
        raise PruneRuleError(f"--older-than {older_than_days}: days cannot be negative")
    if keep is not None and keep < 0:
        raise PruneRuleError(f"--keep {keep}: the number of runs kept cannot be negative")
    cutoff = None if older_than_days is None else (time.time() if now is None else now) - older_than_days * DAY_S
    with store.read_connection() as conn:
        rows = conn.exec_driver_sql(
            "SELECT id, workflow_id, status, COALESCE(started_at, 0) FROM runs ORDER BY pk DESC").all()
    seen_per_workflow: dict[str, int] = {}
    matched: list[str] = []
    live: list[str] = []
    for run_id, workflow_id, status, started in rows:  # newest first
        rank = seen_per_workflow.get(workflow_id, 0)
        seen_per_workflow[workflow_id] = rank + 1
        if (keep is None or rank >= keep) and (cutoff is None or started < cutoff):
            (live if status == "running" else matched).append(str(run_id))
    return _spare_sources(matched, live, source_links(store))


def _spare_sources(matched: list[str], live: list[str], links: dict[str, str]) -> PrunePlan:
    """Keep each matched run that a run staying in the store descends from (directly or not)."""
    going = set(matched)
    kept: set[str] = set()
    for child, origin in links.items():
        if child in going:
            continue
        up, hops = origin, 0
        while up and hops <= len(links):  # a staying run protects its whole chain of sources
            if up in going:
                going.discard(up)
                kept.add(up)
            up, hops = links.get(up, ""), hops + 1
    return PrunePlan([r for r in reversed(matched) if r in going], list(reversed(live)),
                     [r for r in reversed(matched) if r in kept])


def apply_prune(store: TraceStore, plan: PrunePlan) -> int:
    return store.delete_runs(plan.delete) if plan.delete else 0


def fmt_size(size: int) -> str:
    """A size in bytes as people read it: "812 B", "3.4 MB"."""
    value, unit = float(size), "B"
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            break
        value /= 1024
    return f"{value:.0f} B" if unit == "B" else f"{value:.1f} {unit}"
