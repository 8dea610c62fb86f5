"""OpenTelemetry export of runs, following the GenAI semantic conventions (no Qt).

Public API:
- `run_spans(projection, started_at=..., include_content=False, scrubber=None)`: a run as SDK spans
  (`spans.py`); `stored_run_spans(store, run_id, ...)` the same for a run in the trace store;
- `send_spans(spans, endpoint, timeout_s=10)`: OTLP/HTTP protobuf through the official exporter;
  `OtelExportError` names the endpoint and what went wrong (refused, timed out, HTTP status);
- `write_json_lines(batches, path)`: one OTLP JSON `ExportTraceServiceRequest` per line, one per run;
- `Scrubber`, `known_secrets()`: the keys an export must never carry.

This package imports the OpenTelemetry SDK: import it only when an export is asked for, never on
the window's start-up path.
"""

from engine.export.otel.secrets import Scrubber, known_secrets
from engine.export.otel.send import OtelExportError, send_spans, traces_url, write_json_lines
from engine.export.otel.spans import run_spans
from engine.export.otel.stored import stored_run_spans

__all__ = ["OtelExportError", "Scrubber", "known_secrets", "run_spans", "send_spans", "stored_run_spans",
           "traces_url", "write_json_lines"]
