"""The one projection of a run's events: what every view of a run (CLI, store reads, docks, playback) reads.

Public API: `RunProjection` (`apply`, `apply_many(events, until_seq=None)`, `take_changes()`, rows),
`project(events, until_seq=None)`, `ProjectionChanges`, the row types and `SpanTable`. Qt-free.
"""

from engine.projection.changes import ProjectionChanges
from engine.projection.rows import TERMINAL_NODE_STATES, CallRow, HumanQuestion, NodeRow, SpanRow
from engine.projection.run_projection import RunProjection, project
from engine.projection.spans import SpanTable, run_span_id
from engine.projection.usage import ModelUsage, UsageSeries

__all__ = [
    "TERMINAL_NODE_STATES", "CallRow", "HumanQuestion", "ModelUsage", "NodeRow", "ProjectionChanges",
    "RunProjection", "SpanRow", "SpanTable", "UsageSeries", "project", "run_span_id",
]
