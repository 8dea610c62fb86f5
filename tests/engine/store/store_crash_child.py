"""Child process of the crash test: streams events of run "crash" into a store until it is killed.

Usage: python store_crash_child.py DB_PATH. Prints the last seq it knows is committed, then keeps
appending (never closing the writer) so that the kill lands mid-run, usually mid-batch.
"""

from __future__ import annotations

import sys
import time

from engine import events as ev
from engine.store import TraceStore


def main(path: str) -> None:
    store = TraceStore(path)
    writer = store.writer(flush_interval_s=0.01, batch_size=200)
    writer.append(ev.RunStarted(run_id="crash", seq=1, ts=0.0, span_id="root", workflow_id="wf",
                                workflow_name="Crash", workflow_hash="h"))
    seq = 1
    while True:
        for _ in range(50):
            seq += 1
            if seq % 10 == 0:
                writer.append(ev.NodeStateChanged(run_id="crash", seq=seq, ts=seq * 1e-3, span_id=f"n{seq}",
                                                  parent_id="root", node_id=f"n{seq}", state="running"))
            else:
                writer.append(ev.LLMTokenDelta(run_id="crash", seq=seq, ts=seq * 1e-3, span_id="llm",
                                               parent_id="root", text=f"tok{seq} "))
        if seq == 1001:
            writer.flush()
            print(seq, flush=True)
        time.sleep(0.0005)


if __name__ == "__main__":
    main(sys.argv[1])
