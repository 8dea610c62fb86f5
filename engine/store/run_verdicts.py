"""Verdict counts per run, for a list of runs ("2 approve · 1 revise") read in one query.

Invariant: read-only, one SQL `GROUP BY` over the `verdicts` table for all the runs asked about
(never one query per run); a run with no verdicts is absent from the result.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, func, select

from engine.store.tables import RUNS, VERDICTS

_CHUNK = 500  # SQLite's bound-parameter limit is far above this; chunks keep the statement small


def verdict_counts(conn: Connection, run_ids: Iterable[str]) -> dict[str, dict[str, int]]:
    """{run id: {decision: count}} for the given runs, decisions in first-seen order."""
    ids = list(dict.fromkeys(run_ids))
    out: dict[str, dict[str, int]] = {}
    r, v = RUNS.c, VERDICTS.c
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        query = (select(r.id, v.decision, func.count(), func.min(v.seq))
                 .select_from(VERDICTS.join(RUNS, RUNS.c.pk == VERDICTS.c.run_pk))
                 .where(r.id.in_(chunk)).group_by(r.id, v.decision).order_by(r.id, func.min(v.seq)))
        for run_id, decision, count, _first in conn.execute(query):
            out.setdefault(str(run_id), {})[str(decision)] = int(count)
    return out


__all__ = ["verdict_counts"]
