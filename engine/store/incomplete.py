"""Marking runs whose trace lost events: the store says so itself, not only the process that ran it.

A run whose `RunFinished` was stored keeps its status; its reason gets "[trace incomplete: ...]". A run
left "running" (its end was among the lost events) becomes "incomplete", so it is neither shown as
still running nor taken for an interrupted run. Best effort: a store that takes no write at all
(read-only, full, locked) cannot be marked — the run's `recording_errors` still say it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from sqlalchemy import Engine, case, func, update

from engine.store.connection import BUSY_TIMEOUT_MS
from engine.store.tables import RUNS

INCOMPLETE = "incomplete"
_log = logging.getLogger(__name__)


def mark_incomplete(engine: Engine, run_ids: Iterable[str], errors: Sequence[str]) -> bool:
    """Mark `run_ids` incomplete; False when the store would not take it."""
    ids = sorted(run_ids)
    if not ids or not errors:
        return False
    note = f" [trace incomplete: {len(errors)} recording problem(s), first: {errors[0][:200]}]"
    try:
        with engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            assert raw is not None
            raw.execute("PRAGMA busy_timeout=1000")  # a locked store: do not wait 10 s for a note
            try:
                with conn.begin():
                    conn.execute(update(RUNS).where(RUNS.c.id.in_(ids)).values(
                        status=case((RUNS.c.status == "running", INCOMPLETE), else_=RUNS.c.status),
                        reason=func.coalesce(RUNS.c.reason, "") + note, owner_pid=None))
            finally:
                raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return True
    except Exception as exc:  # the store takes no write: the caller's errors already say what was lost
        _log.debug("could not mark runs %s incomplete: %s", ids, type(exc).__name__)
        return False
