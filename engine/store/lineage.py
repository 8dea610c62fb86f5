"""Lineage of stored runs: where a fork began in its source, and which runs descend from a run.

- `fork_origin(store, source_id, seq)`: the node execution ("NODE", N) of the source run that the
  event `seq` began (a fork's `fork_at_seq`), read from the source's `node_state` events up to that
  seq only; None when the source is gone or the seq is not a node's start.
- `descendants(store, run_ids)`: every run (any depth) whose `replay_of` / `fork_of` chain leads to
  one of `run_ids`, read from the runs table in one query.

Engine only: no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine import events as ev

if TYPE_CHECKING:
    from engine.store.store import TraceStore


def fork_origin(store: TraceStore, source_id: str, seq: int) -> tuple[str, int] | None:
    counts: dict[str, int] = {}
    seen: set[str | None] = set()
    for e in store.iter_events(source_id, kinds=["node_state"], to_seq=seq):
        if isinstance(e, ev.NodeStateChanged) and e.state == "running" and e.span_id not in seen:
            seen.add(e.span_id)
            counts[e.node_id] = counts.get(e.node_id, 0) + 1
            if e.seq == seq:
                return e.node_id, counts[e.node_id]
    return None


def source_links(store: TraceStore) -> dict[str, str]:
    """run id -> the run it was replayed or forked from, for every run that has one."""
    with store.read_connection() as conn:
        rows = conn.exec_driver_sql(
            "SELECT id, COALESCE(NULLIF(replay_of, ''), fork_of) FROM runs "
            "WHERE COALESCE(NULLIF(replay_of, ''), fork_of, '') != ''").all()
    return {str(run_id): str(origin) for run_id, origin in rows}


def descendants(store: TraceStore, run_ids: Iterable[str]) -> set[str]:
    children: dict[str, list[str]] = {}
    for child, origin in source_links(store).items():
        children.setdefault(origin, []).append(child)
    found: set[str] = set()
    stack = [c for run_id in run_ids for c in children.get(run_id, [])]
    while stack:
        run_id = stack.pop()
        if run_id not in found:
            found.add(run_id)
            stack.extend(children.get(run_id, []))
    return found
