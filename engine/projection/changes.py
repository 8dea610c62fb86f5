"""`ProjectionChanges`: what a batch of events changed in a `RunProjection`, for views to update only that.

The projection accumulates changes as it applies events; its one consumer (the GUI's run controller,
once per coalesced flush) takes them with `RunProjection.take_changes()`, which starts a fresh set.
Lists that only grow (verdicts, memory writes, questions, events, problems) are not listed here: a
view remembers how many rows it shows and reads the rest from the projection.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ProjectionChanges:
    events: int = 0  # how many events were applied
    last_seq: int = 0
    nodes: set[str] = field(default_factory=set)  # node ids whose row changed
    spans_added: list[str] = field(default_factory=list)  # span ids first seen, in order
    spans_changed: set[str] = field(default_factory=set)  # spans already seen that changed
    calls_added: list[str] = field(default_factory=list)
    calls_changed: set[str] = field(default_factory=set)  # new deltas, retries, results (coalesced per call)
    flows: list[tuple[str, str]] = field(default_factory=list)  # (node id, port) outputs produced: edges to flash
    run: bool = False  # status, totals, budget, hold or settings changed
    usage: bool = False
    verdicts: bool = False
    memory: bool = False
    human: bool = False
    problems: bool = False
    contracts: bool = False  # the run's trace contracts were checked
    reset: bool = False  # the projection was rebuilt: views start over

    def __bool__(self) -> bool:
        return self.events > 0 or self.reset
