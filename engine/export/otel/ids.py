"""Stable OpenTelemetry ids for a run: the same run exported twice gets the same trace and span ids.

A trace id is derived from the run id alone, a span id from the run id and the span's own id (the
projection's span ids: `run:<id>`, node executions, calls), by hashing — so a receiver that dedupes by
id sees a re-export as the same spans, never as a second copy. Ids are never zero (invalid in OTLP).
"""

from __future__ import annotations

import hashlib


def _digest(text: str, size: int) -> int:
    value = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:size], "big")
    return value or 1


def trace_id(run_id: str) -> int:
    """The 128-bit trace id of run `run_id`."""
    return _digest(f"triadic-trace/{run_id}", 16)


def span_id(run_id: str, span: str) -> int:
    """The 64-bit span id of span `span` of run `run_id`."""
    return _digest(f"triadic-span/{run_id}/{span}", 8)
