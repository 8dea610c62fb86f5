"""A small OTLP/HTTP receiver on 127.0.0.1 for tests: it keeps each POSTed body and decodes it with the
official opentelemetry-proto messages. `answer` sets the HTTP status it replies with; `silent` makes it
accept the connection and never answer (a receiver that hangs)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest


@dataclass
class Receiver:
    url: str = ""
    answer: int = 200
    silent: bool = False
    bodies: list[bytes] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    content_types: list[str] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def requests(self) -> list[ExportTraceServiceRequest]:
        out = []
        for body in self.bodies:
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            out.append(request)
        return out

    def spans(self) -> list[Any]:
        return [span for r in self.requests() for rs in r.resource_spans for ss in rs.scope_spans for span in ss.spans]


@contextmanager
def otlp_receiver() -> Iterator[Receiver]:
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if receiver.silent:
                receiver.release.wait(10)
                return
            receiver.bodies.append(body)
            receiver.paths.append(self.path)
            receiver.content_types.append(self.headers.get("Content-Type", ""))
            self.send_response(receiver.answer)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.release.set()
        server.shutdown()
        server.server_close()


def attributes(span: Any) -> dict[str, Any]:
    """A decoded span's (or event's) attributes as plain Python values."""
    out: dict[str, Any] = {}
    for kv in span.attributes:
        kind = kv.value.WhichOneof("value")
        value = getattr(kv.value, kind)
        out[kv.key] = [getattr(v, v.WhichOneof("value")) for v in value.values] if kind == "array_value" else value
    return out
