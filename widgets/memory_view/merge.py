"""The memory events of a run in seq order: its writes and reads merged, read incrementally.

`of_node(node_id, node)` says whether an event of `node_id` belongs to a filter on `node` (itself, or a
node inside it when it is a sub-graph). `merged_since(projection, seen)` returns the writes and reads that arrived after `seen`
(= (writes seen, reads seen)) merged by seq, and the new `seen`. Both lists only grow and events
arrive in seq order, so everything new sorts after everything seen before.
"""

from __future__ import annotations

from heapq import merge

from engine import events as ev
from engine.projection import RunProjection

MemoryEvent = ev.MemoryWritten | ev.MemoryRead
Group = tuple[str, str]  # (memory, scope)
Key = tuple[str, str, str]  # (memory, scope, key)


def of_node(node_id: str, node: str) -> bool:
    """True when `node_id` is `node` or runs inside it (a sub-graph's nodes are keyed "node/inner")."""
    return node_id == node or node_id.startswith(node + "/")


def merged_since(p: RunProjection, seen: tuple[int, int]) -> tuple[list[MemoryEvent], tuple[int, int]]:
    writes, reads = p.memory_writes, p.memory_reads
    new_writes: list[MemoryEvent] = list(writes[seen[0]:])
    new_reads: list[MemoryEvent] = list(reads[seen[1]:])
    if not new_reads:
        return new_writes, (len(writes), len(reads))
    if not new_writes:
        return new_reads, (len(writes), len(reads))
    return list(merge(new_writes, new_reads, key=lambda e: e.seq)), (len(writes), len(reads))
