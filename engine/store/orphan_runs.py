"""Recovery at open: runs left "running" by a process that is gone are marked "interrupted".

A run row records the pid of the process whose writer stored its RunStarted (`owner_pid`, cleared at
RunFinished). At open, a running run is orphaned unless its owner is this process with a writer still
open, or another process that is still alive (so a GUI opening the DB never interrupts a live CLI
run). Orphaned runs get status "interrupted", a reason and a duration up to their last stored event;
their unfinished spans then read "interrupted" (spans are derived from the events, see `engine.store.spans`). Known limit: a recycled pid of an unrelated live
process keeps the run "running" until that process ends; on Windows every orphan is marked (no
cheap liveness probe there).
"""

from __future__ import annotations

import os
import sys

from sqlalchemy import Connection, func, select, update

from engine.store.tables import EVENT_SEGMENTS, RUNS
from engine.store.writer import writers_open_in_process

INTERRUPTED_REASON = "the process writing this run ended before the run finished (killed or crashed)"


def process_alive(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill(pid, 0) would terminate the process there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_orphaned_runs(conn: Connection) -> list[str]:
    """Mark orphaned running runs interrupted (inside the caller's transaction); returns their ids."""
    rows = conn.execute(select(RUNS.c.pk, RUNS.c.id, RUNS.c.owner_pid).where(RUNS.c.status == "running")).all()
    own_live = writers_open_in_process()
    orphaned = []
    for pk, run_id, pid in rows:
        if pid is not None and ((pid == os.getpid() and own_live) or (pid != os.getpid() and process_alive(pid))):
            continue
        seg = EVENT_SEGMENTS.c
        last_ts = conn.execute(select(func.max(seg.last_ts)).where(seg.run_pk == pk)).scalar_one()
        conn.execute(update(RUNS).where(RUNS.c.pk == pk).values(
            status="interrupted", reason=INTERRUPTED_REASON, owner_pid=None, duration_s=float(last_ts or 0.0)))
        orphaned.append(str(run_id))
    return orphaned
