"""Engine code that must not hold the event loop: run in a killable child process with a deadline.

JSON Schema validation (a `pattern` can backtrack for minutes on a short answer; Python's `re` holds
the GIL, so a thread would freeze the loop and the GUI on it) and SQL queries (a query can allocate
gigabytes) run here: `call_bounded("module:function", kwargs, timeout_s=..., memory_bytes=...)` starts
this interpreter (`sys.executable -s`, PYTHONPATH = this checkout), calls the function with JSON-able kwargs, and returns
("ok", result) | ("error", "Type: message") | ("timeout", message) | ("crash", message).

Invariants: the child runs engine code only (no subject code: that goes to the sandbox), with a
clean environment (no API keys), its own session, CPU and address-space limits, and is killed — its
whole group — on the deadline, on an output flood or when the caller is cancelled (`sandbox._run`).
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

from engine.checks.sandbox import SandboxLimits, run_process

_MARK = "\x1etriadic-bounded "
_RUNNER = r"""
import importlib, json, sys
data = json.loads(sys.stdin.buffer.read())
module, name = data["call"].split(":")
try:
    out = {"status": "ok", "value": getattr(importlib.import_module(module), name)(**data["kwargs"])}
except Exception as exc:
    out = {"status": "error", "value": f"{type(exc).__name__}: {exc}"}
sys.stdout.write("\n" + MARK + json.dumps(out, default=str) + "\n")
""".replace("MARK", repr(_MARK))
DEFAULT_MEMORY = 512 << 20
_ROOT = str(Path(__file__).resolve().parents[2])


async def call_bounded(call: str, kwargs: dict[str, Any], *, timeout_s: float,
                       memory_bytes: int = DEFAULT_MEMORY) -> tuple[str, Any]:
    """Run `call` ("package.module:function") in a child process bounded by `timeout_s` and memory."""
    limits = SandboxLimits(cpu_s=max(1, math.ceil(timeout_s)) + 1, memory_bytes=memory_bytes, drop_root=False,
                           output_cap=64 << 20)
    payload = json.dumps({"call": call, "kwargs": kwargs}, default=str).encode()
    with tempfile.TemporaryDirectory(prefix="triadic-bounded-") as cwd:
        result = await run_process([sys.executable, "-s", "-c", _RUNNER], stdin=payload, timeout_s=timeout_s,
                                   cwd=cwd, env={"PYTHONPATH": _ROOT}, limits=limits)
    if result.timed_out:
        return "timeout", f"did not finish within {timeout_s:g} s and was stopped"
    marked = [ln for ln in result.stdout.split("\n") if ln.startswith(_MARK)]
    if not marked:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        why = "memory limit?" if "MemoryError" in result.stderr or result.returncode in (-6, -9) else tail
        return "crash", f"the check process died (exit code {result.returncode}): {why}"
    out = json.loads(marked[-1][len(_MARK):])
    return str(out["status"]), out["value"]


__all__ = ["DEFAULT_MEMORY", "call_bounded"]
