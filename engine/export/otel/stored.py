"""A stored run as spans: read its events from the trace store, project them, map them (`spans.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from opentelemetry.sdk.trace import ReadableSpan

from engine.export.otel.secrets import Scrubber
from engine.export.otel.spans import run_spans
from engine.projection import project

if TYPE_CHECKING:
    from engine.store import RunSummary, TraceStore


def stored_run_spans(store: TraceStore, run: RunSummary, *, include_content: bool = False,
                     scrubber: Scrubber | None = None) -> list[ReadableSpan]:
    """The spans of `run`, as its recording in `store` has them."""
    projection = project(store.iter_events(run.id), keep_events=False)
    started_at = run.started_at
    if started_at is None:  # a run whose start time was not recorded: place it so that it ends when it did
        started_at = (run.finished_at or 0.0) - projection.elapsed_s
    return run_spans(projection, started_at=started_at, include_content=include_content, scrubber=scrubber)
