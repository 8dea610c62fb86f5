"""Fixtures for the gateway tests: a scripted OpenAI-compatible server on 127.0.0.1.

Each request pops the next script step ("ok", 429, 500, 401, a delay in seconds, ("retry-after", 429,
"3"): that status with a Retry-After header, "stall": a stream that sends two words and then hangs for a
second, or "cut": a stream that sends two words and closes without its end); with no
steps left it answers normally. Plain JSON and SSE streaming (with a final usage chunk) both work.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

REPLY = "Hello from the fake server."


@dataclass
class FakeOpenAI:
    url: str
    script: list[Any] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self) -> Any:
        with self.lock:
            return self.script.pop(0) if self.script else "ok"


def _handler(state: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _json(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            with state.lock:
                state.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
            step = state.next_step()
            try:
                if isinstance(step, tuple) and step[0] == "retry-after":
                    return self._json(step[1], {"error": {"message": "slow down", "type": "rate_limit"}},
                                      {"Retry-After": step[2]})
                if isinstance(step, float):
                    time.sleep(step)
                elif step == 401:
                    key = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    return self._json(401, {"error": {"message": f"Incorrect API key provided: {key}",
                                                      "type": "invalid_request_error", "code": "invalid_api_key"}})
                elif isinstance(step, int):
                    return self._json(step, {"error": {"message": f"scripted {step}", "type": "server_error"}})
                if body.get("stream"):
                    return self._stream(body, stall=step == "stall", cut=step == "cut")
                self._json(200, {"id": "c1", "object": "chat.completion", "created": 1, "model": body["model"],
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": REPLY}}],
                                 "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}})
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _stream(self, body: dict[str, Any], *, stall: bool = False, cut: bool = False) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            base = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": body["model"]}
            for index, word in enumerate(REPLY.split(" ")):
                if cut and index == 2:
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if stall and index == 2:
                    self.wfile.flush()
                    time.sleep(1.0)  # the client's timeout cuts the stream here
                    return
                chunk = {**base, "choices": [{"index": 0, "delta": {"content": word + " "}, "finish_reason": None}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            final = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
            self.wfile.write(f"data: {json.dumps(final)}\n\n".encode())
            if (body.get("stream_options") or {}).get("include_usage"):
                usage = {**base, "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 7,
                                                          "total_tokens": 18}}
                self.wfile.write(f"data: {json.dumps(usage)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with serve_fake_openai() as state:
        yield state


@contextmanager
def serve_fake_openai() -> Iterator[FakeOpenAI]:
    """The scripted server, on 127.0.0.1 while the block runs (the fixture, and other folders' tests)."""
    state = FakeOpenAI(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()
