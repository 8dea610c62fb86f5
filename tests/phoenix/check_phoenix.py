"""`make test-phoenix` (opt-in, not part of `make test`): a run exported to a real Arize Phoenix.

Starts Phoenix (installed in its own venv, `.venv-phoenix`; its Python is argv[1]) on 127.0.0.1 with a
throwaway working dir, runs the bundled triad example offline with `triadic run --otel`, then reads the
spans back through Phoenix's REST API (`/v1/projects/default/spans`) and checks them: every span
arrived, one root `invoke_workflow`, parents all present, GenAI attributes on the `chat` spans, the
critic's verdicts as `gen_ai.evaluation.result` events. Prints one JSON line of figures; exit 0 when
every check holds, 1 otherwise. Phoenix's own log goes to a file named on failure.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "triad.triadic.json"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read() or b"null")


def _wait_ready(url: str, proc: subprocess.Popen[bytes], limit_s: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < limit_s:
        if proc.poll() is not None:
            raise RuntimeError(f"Phoenix exited with code {proc.returncode} before it was ready")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return time.monotonic() - started
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"Phoenix did not answer at {url} within {limit_s:g} s")


def _spans(url: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = ""
    while True:
        page = _get(f"{url}/v1/projects/default/spans?limit=1000{'&cursor=' + cursor if cursor else ''}")
        found.extend(page.get("data") or [])
        cursor = page.get("next_cursor") or ""
        if not cursor:
            return found


def _flat(attrs: Any, prefix: str = "") -> dict[str, Any]:
    """Phoenix nests dotted attribute names ({"gen_ai": {"usage": ...}}); flatten them back."""
    if not isinstance(attrs, dict):
        return {prefix.rstrip("."): attrs}
    out: dict[str, Any] = {}
    for key, value in attrs.items():
        out.update(_flat(value, f"{prefix}{key}."))
    return out


def _check(spans: list[dict[str, Any]], expected: int) -> list[str]:
    problems = []
    if len(spans) != expected:
        problems.append(f"Phoenix holds {len(spans)} spans, {expected} were sent")
    ids = {s["context"]["span_id"] for s in spans}
    roots = [s for s in spans if not s.get("parent_id")]
    if [r["name"].split(" ")[0] for r in roots] != ["invoke_workflow"]:
        problems.append(f"roots: {[r['name'] for r in roots]}")
    if any(s.get("parent_id") and s["parent_id"] not in ids for s in spans):
        problems.append("a span's parent is missing")
    chats = [_flat(s.get("attributes")) for s in spans if s["name"].startswith("chat ")]
    if not chats or not all(c.get("gen_ai.usage.input_tokens") and c.get("gen_ai.request.model") for c in chats):
        problems.append("chat spans lack gen_ai.request.model / gen_ai.usage.input_tokens")
    if not any(e.get("name") == "gen_ai.evaluation.result" for s in spans for e in s.get("events") or []):
        problems.append("no gen_ai.evaluation.result event arrived")
    return problems


def main(phoenix_python: str) -> int:
    from app.cli.main import main as triadic

    port, work = _free_port(), Path(tempfile.mkdtemp(prefix="triadic-phoenix-"))
    url, log_path = f"http://127.0.0.1:{port}", work / "phoenix.log"
    env = {**os.environ, "PHOENIX_HOST": "127.0.0.1", "PHOENIX_PORT": str(port),
           "PHOENIX_GRPC_PORT": str(_free_port()), "PHOENIX_WORKING_DIR": str(work),
           "PHOENIX_TELEMETRY_ENABLED": "false"}
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([phoenix_python, "-m", "phoenix.server.main", "serve"], env=env,
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        ready_s = _wait_ready(url, proc, 300)
        db = work / "runs.db"
        started = time.monotonic()
        if triadic(["run", str(EXAMPLE), "--db", str(db), "-q", "--otel", url]) != 0:
            raise RuntimeError("triadic run --otel failed")
        from engine.export.otel import stored_run_spans
        from engine.store import TraceStore

        with TraceStore(db) as store:
            expected = len(stored_run_spans(store, store.list_runs()[0]))
        spans: list[dict[str, Any]] = []
        while time.monotonic() - started < 60 and len(spans) < expected:
            time.sleep(0.5)
            spans = _spans(url)
        problems = _check(spans, expected)
        print(json.dumps({"name": "phoenix_roundtrip", "phoenix_ready_s": round(ready_s, 1),
                          "spans_sent": expected, "spans_read_back": len(spans),
                          "send_to_read_back_s": round(time.monotonic() - started, 2), "problems": problems}))
        return 1 if problems else 0
    except (RuntimeError, OSError) as exc:
        print(f"test-phoenix: {exc} (Phoenix log: {log_path})", file=sys.stderr)
        return 1
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
