"""Sending spans: OTLP/HTTP protobuf to a receiver (`send_spans`), or OTLP JSON lines to a file.

`send_spans` uses the official `OTLPSpanExporter` (it retries transient failures until `timeout_s`);
the exporter reports failures only through its logger, so the session it posts with remembers the
last error or HTTP status, which becomes one `OtelExportError` naming the endpoint and the cause
(refused, timed out, HTTP status); the exporter's own log lines are not propagated. `write_json_lines` writes the OTLP JSON encoding (ids in hex, enums as integers): one
`ExportTraceServiceRequest` per line, one line per batch (a run), written whole or not at all.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

from engine.export.endpoint import EndpointError
from engine.export.endpoint import traces_url as _traces_url

_EXPORTER_LOGGER = "opentelemetry.exporter.otlp.proto.http.trace_exporter"
_ID_FIELDS = ("traceId", "spanId", "parentSpanId")


class OtelExportError(RuntimeError):
    """An export that did not reach its receiver or file; the message says where and why."""


def traces_url(endpoint: str) -> str:
    """`engine.export.endpoint.traces_url`, its error an `OtelExportError`."""
    try:
        return _traces_url(endpoint)
    except EndpointError as exc:
        raise OtelExportError(str(exc)) from None


def _watched_session() -> Any:
    """A requests session that remembers the last error or HTTP status of the exporter's posts (the
    exporter itself only logs them)."""
    import requests

    class WatchedSession(requests.Session):
        last_error: BaseException | None = None
        last_status: tuple[int, str] | None = None

        def request(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            try:
                response = super().request(*args, **kwargs)
            except Exception as exc:
                self.last_error = exc
                raise
            self.last_status = (response.status_code, response.reason or "")
            return response

    return WatchedSession()


def send_spans(spans: Sequence[ReadableSpan], endpoint: str, *, timeout_s: float = 10.0) -> None:
    """Send `spans` to the OTLP/HTTP receiver at `endpoint`; `OtelExportError` when it did not take them."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    url = traces_url(endpoint)
    if not spans:
        return
    logger = logging.getLogger(_EXPORTER_LOGGER)
    propagate, logger.propagate = logger.propagate, False  # the failure is raised, not logged twice
    session = _watched_session()
    exporter = OTLPSpanExporter(endpoint=url, timeout=timeout_s, session=session)
    try:
        result = exporter.export(spans)
    finally:
        exporter.shutdown()  # type: ignore[no-untyped-call]
        logger.propagate = propagate
    if result is not SpanExportResult.SUCCESS:
        raise OtelExportError(f"OpenTelemetry export to {url} failed: {_cause(session, timeout_s)}")


def _cause(session: Any, timeout_s: float) -> str:
    error, status = session.last_error, session.last_status
    if status is not None and error is None:
        return f"the receiver answered HTTP {status[0]} {status[1]}".rstrip()
    if error is None:
        return f"gave up after {timeout_s:g} s"
    name = type(error).__name__
    if "Timeout" in name:
        return f"no answer within {timeout_s:g} s ({name})"
    if "Connection" in name:
        return f"could not connect — is a receiver listening there? ({name})"
    return f"{name}: {error}"


def json_request(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The OTLP JSON form of one export request holding `spans` (ids as hex, as OTLP/JSON requires)."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    request: dict[str, Any] = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    for resource in request.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for field in _ID_FIELDS:
                    if field in span:
                        span[field] = _hex(span[field])
    return request


def _hex(b64: str) -> str:
    import base64

    return base64.b64decode(b64).hex()


def write_json_lines(batches: Iterable[Sequence[ReadableSpan]], path: Path) -> int:
    """Write one OTLP JSON request per batch to `path` (replaced whole); returns how many spans."""
    lines, count = [], 0
    for batch in batches:
        lines.append(json.dumps(json_request(batch), ensure_ascii=False, separators=(",", ":")))
        count += len(batch)
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
        os.replace(tmp, target)
    except OSError as exc:
        raise OtelExportError(f"cannot write {target}: {exc.strerror or exc}") from None
    return count
