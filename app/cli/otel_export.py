"""Exporting stored runs as OpenTelemetry: what `triadic otel` and `triadic run --otel` share.

Every export goes through a `Scrubber` that knows this machine's keys (environment and keyring), so
no key reaches a receiver or a file, whatever a prompt contains. The OpenTelemetry SDK is imported
here, when an export runs, never when the CLI starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.store import RunSummary, TraceStore


@dataclass(frozen=True)
class OtelTarget:
    endpoint: str | None = None
    file: Path | None = None
    include_content: bool = False
    timeout_s: float = 10.0

    @property
    def where(self) -> str:
        return str(self.file) if self.file is not None else str(self.endpoint)


def export_runs(store: TraceStore, runs: Sequence[RunSummary], target: OtelTarget) -> int:
    """Export `runs` to `target`; returns the number of spans. Raises `OtelExportError` naming where."""
    from engine.export.otel import Scrubber, known_secrets, send_spans, stored_run_spans, write_json_lines

    scrubber = Scrubber(known_secrets())
    batches = [stored_run_spans(store, run, include_content=target.include_content, scrubber=scrubber)
               for run in runs]
    if target.file is not None:
        return write_json_lines(batches, target.file)
    spans = [span for batch in batches for span in batch]
    send_spans(spans, target.endpoint or "", timeout_s=target.timeout_s)
    return len(spans)
