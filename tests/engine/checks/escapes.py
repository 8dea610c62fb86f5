"""Escape attempts against the check sandbox, run as a separate "engine" process.

`python -m tests.engine.checks.escapes` plays the engine: it holds a secret in its own environment
(as an API key would be), has a HOME with a secret under ~/.config, listens on 127.0.0.1, counts
the signals it gets, then runs each attempt through `run_sandboxed` (also: 2 GiB of memory, 200
processes, past the default limits) and prints one JSON object:
{"user": ..., "strength": ..., "attempts": {name: escaped?}}. Standard library + `engine.checks`
only, so it also runs under the system Python as an unprivileged user (tests and tests/perf run it
as root and, via `setpriv`, as `nobody`).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from engine.checks.sandbox import run_sandboxed, sandbox_python, sandbox_strength

SECRET_VAR = "TRIADIC_ESCAPE_SECRET"


def _kill_marked(marker: str) -> list[int]:
    """Kill the processes whose command line holds `marker`; their pids (none: nothing escaped)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode("utf-8", "replace"):
                    os.kill(int(entry.name), signal.SIGKILL)
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


async def _attempts() -> dict[str, bool]:
    secret, marker = os.environ[SECRET_VAR], uuid.uuid4().hex
    home_secret = Path(os.environ["HOME"]) / ".config" / "triadic-escape" / "secret"
    home_secret.parent.mkdir(parents=True, exist_ok=True)
    home_secret.write_text(secret)
    signals: list[int] = []
    signal.signal(signal.SIGUSR1, lambda *_: signals.append(1))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    port, pid = listener.getsockname()[1], os.getpid()
    py = sandbox_python()
    tries = {
        "network_loopback": f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=2)",
        "write_host_tmp": f"open('/tmp/escape-{marker}', 'w').write('x')",
        "write_host_shm": f"open('/dev/shm/escape-{marker}', 'w').write('x')",
        "read_engine_environ": ("import glob\nfor p in glob.glob('/proc/*/environ'):\n try: print(open(p,'rb')"
                                ".read().decode('latin-1'))\n except OSError: pass\n"
                                f"print(open('/proc/{pid}/environ','rb').read().decode('latin-1'))"),
        "read_user_home": f"print(open({str(home_secret)!r}).read())",
        "signal_engine": f"import os, signal; os.kill({pid}, signal.SIGUSR1)",
        "unbounded_memory": "x = bytearray(2 << 30); print('ALLOCATED')",
        "unbounded_processes": ("import os, time\nkids = 0\nfor _ in range(200):\n    if os.fork() == 0:\n"
                                "        time.sleep(2); os._exit(0)\n    kids += 1\nprint('FORKED', kids)"),
        "outlive_with_setsid": (f"import subprocess; subprocess.Popen(['setsid', 'sh', '-c', "
                                f"'sleep 30; : escape-{marker}'], start_new_session=True)"),
    }
    escaped: dict[str, bool] = {}
    for name, code in tries.items():
        result = await run_sandboxed([py, "-c", code], timeout_s=10)
        out = result.stdout + result.stderr
        if name == "network_loopback":
            try:
                listener.accept()[0].close()
                escaped[name] = True
            except BlockingIOError:
                escaped[name] = False
        elif name.startswith("write_host"):
            path = Path(f"/{'tmp' if name.endswith('tmp') else 'dev/shm'}/escape-{marker}")
            escaped[name] = path.exists()
            path.unlink(missing_ok=True)
        elif name.startswith("read_"):
            escaped[name] = secret in out
        elif name == "unbounded_memory":
            escaped[name] = "ALLOCATED" in result.stdout
        elif name == "unbounded_processes":
            escaped[name] = "FORKED 200" in result.stdout
        elif name == "signal_engine":
            time.sleep(0.2)
            escaped[name] = bool(signals)
        else:
            time.sleep(1.0)
            escaped[name] = bool(_kill_marked(f"escape-{marker}"))
    return escaped


def run_harness(*, level: str = "auto", as_uid: int | None = None, timeout_s: float = 120) -> dict[str, Any]:
    """Run the attempts in a fresh engine process (as `as_uid` via setpriv, with the system
    Python, when given) at sandbox `level` ("auto" or "process"); its JSON report."""
    repo = Path(__file__).resolve().parents[3]
    with tempfile.TemporaryDirectory(prefix="triadic-escape-home-") as home:
        os.chmod(home, 0o700)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "PYTHONPATH": str(repo),
               "TRIADIC_SANDBOX": level, SECRET_VAR: "sk-escape-" + uuid.uuid4().hex, "LANG": "C.UTF-8"}
        argv = [sys.executable, "-m", "tests.engine.checks.escapes"]
        if as_uid is not None:
            os.chown(home, as_uid, as_uid)
            argv = ["setpriv", f"--reuid={as_uid}", f"--regid={as_uid}", "--clear-groups",
                    "/usr/bin/python3", *argv[1:]]
        done = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True, timeout=timeout_s,
                              check=False)
    if done.returncode != 0:
        raise RuntimeError(f"escape harness failed ({done.returncode}): {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def main() -> None:
    if SECRET_VAR not in os.environ:
        raise SystemExit(f"start with {SECRET_VAR} in the environment (run_harness does)")
    attempts = asyncio.run(_attempts())
    print(json.dumps({"user": os.geteuid(), "strength": sandbox_strength(), "attempts": attempts}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
