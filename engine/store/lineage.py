"""Lineage of stored runs: where a fork began in its source, and which runs descend from a run.

- `fork_origin(store, source_id, seq)`: the node execution ("NODE", N) of the source run that the
  event `seq` began (a fork's `fork_at_seq`), read from the source's `node_state` events up to that
  seq only; None when the source is gone or the seq is not a node's start. `fork_origins` does it for
  many forks in one read transaction (the Runs list).
- `descendants(store, run_ids)`: every run (any depth) whose `replay_of` / `fork_of` chain leads to
  one of `run_ids`, read from the runs table in one query.

Engine only: no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from engine import events as ev
from engine.store.queries import load_events

if TYPE_CHECKING:
    from engine.store.store import TraceStore

_NODE_STATE = ("node_state",)


def fork_origin(store: TraceStore, source_id: str, seq: int) -> tuple[str, int] | None:
    return fork_origins(store, [(source_id, seq)]).get((source_id, seq))


def fork_origins(store: TraceStore, forks: Iterable[tuple[str, int]]) -> dict[tuple[str, int], tuple[str, int]]:
    """`fork_origin` for many (source id, seq) pairs in one read transaction (unknown pairs left out)."""
    wanted = sorted(set(forks))
    found: dict[tuple[str, int], tuple[str, int]] = {}
    if not wanted:
        return found
    with store.read_connection() as conn:
        pks: dict[str, int] = {}
        ids = sorted({source for source, _seq in wanted})
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            pks.update((str(i), int(pk)) for pk, i in conn.exec_driver_sql(
                f"SELECT pk, id FROM runs WHERE id IN ({marks})", tuple(chunk)))
        for source, seq in wanted:
            if source in pks:
                origin = _origin(load_events(conn, pks[source], source, kinds=_NODE_STATE, to_seq=seq), seq)
                if origin is not None:
                    found[(source, seq)] = origin
    return found


def _origin(events: Iterable[ev.Event], seq: int) -> tuple[str, int] | None:
    counts: dict[str, int] = {}
    seen: set[str | None] = set()
    for e in events:
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
