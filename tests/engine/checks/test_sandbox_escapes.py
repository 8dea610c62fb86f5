"""The escapes of issue 14 against the check sandbox, as the engine's user and as a normal user.

Each attempt succeeded with the process-level sandbox (the only one before): a listener on
127.0.0.1 accepted the connection, files appeared in the host's /tmp and /dev/shm, a `setsid` child
outlived the check, and as a normal user the code read the engine's environment and the user's
home and signalled the engine. With namespaces (bubblewrap) none may succeed. The process level is
still there as the documented fallback: it must say that it is weak.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator

import pytest

from engine.checks import isolation as iso_mod
from engine.checks import run_check
from engine.checks.sandbox import run_sandboxed, sandbox_strength
from tests.engine.checks.escapes import run_harness
from tests.engine.checks.test_checks_sandbox import _processes_running

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="namespaces are Linux only")
NOBODY = 65534


@pytest.fixture(autouse=True)
def _fresh_isolation() -> Iterator[None]:
    iso_mod.isolation.cache_clear()
    yield
    iso_mod.isolation.cache_clear()


def test_the_sandbox_is_strong_here() -> None:
    strength = sandbox_strength()
    assert strength.startswith("strong:"), f"install bubblewrap for the tests (.ci/run does): {strength}"


def test_no_escape_as_the_engines_user() -> None:
    report = run_harness()
    assert report["strength"].startswith("strong:")
    assert [name for name, escaped in report["attempts"].items() if escaped] == []
    assert len(report["attempts"]) == 9


@pytest.mark.skipif(os.geteuid() != 0, reason="already a normal user: the test above covers it")
def test_no_escape_as_a_normal_user() -> None:
    report = run_harness(as_uid=NOBODY)
    assert report["user"] == NOBODY and report["strength"].startswith("strong:")
    assert [name for name, escaped in report["attempts"].items() if escaped] == []


def test_the_process_level_fallback_says_it_is_weak() -> None:
    report = run_harness(level="process", as_uid=NOBODY if os.geteuid() == 0 else None)
    assert report["strength"].startswith("weak:") and "TRIADIC_SANDBOX=process" in report["strength"]
    assert report["attempts"]["network_loopback"] and report["attempts"]["outlive_with_setsid"]


@pytest.mark.asyncio
async def test_missing_bubblewrap_is_said_not_silent(monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(iso_mod.shutil, "which", lambda *_a, **_k: None)
    monkeypatch.setattr(iso_mod, "_warned", [])
    strength = sandbox_strength()
    assert strength.startswith("weak:") and "apt install bubblewrap" in strength
    result = await run_sandboxed(["/bin/sh", "-c", "echo ran"], timeout_s=10)
    assert result.stdout.strip() == "ran"
    assert any("check sandbox is weak" in r.getMessage() for r in caplog.records)
    monkeypatch.setenv("TRIADIC_SANDBOX", "bwrap")
    iso_mod.isolation.cache_clear()
    verdict = await run_check("command", "true", "subject", timeout_s=5)
    assert verdict.broken and "bubblewrap (bwrap) is not installed" in verdict.reasons[0]


@pytest.mark.asyncio
@pytest.mark.parametrize("level", ["auto", "process"])
async def test_a_cancel_while_the_process_starts_kills_it_promptly(monkeypatch: pytest.MonkeyPatch,
                                                                   level: str) -> None:
    """The cancel lands inside create_subprocess_exec: the old code never learnt the pid, only the
    leader was killed and the group lived on (a cancel waited 21.5 s in the issue)."""
    monkeypatch.setenv("TRIADIC_SANDBOX", level)
    real = asyncio.create_subprocess_exec
    started = asyncio.Event()

    async def slow_start(*args: object, **kwargs: object) -> asyncio.subprocess.Process:
        proc = await real(*args, **kwargs)  # type: ignore[arg-type]
        started.set()
        await asyncio.sleep(0.5)  # the window: the child runs, the caller has no handle yet
        return proc

    monkeypatch.setattr(asyncio, "create_subprocess_exec", slow_start)
    marker = f"sleep 61.{'5' if level == 'auto' else '75'}"
    task = asyncio.create_task(run_sandboxed(["/bin/sh", "-c", f"{marker} & setsid {marker} & wait"],
                                             timeout_s=5))
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.sleep(0.2)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - cancelled_at < 3.0
    deadline = time.monotonic() + 2.0
    while _processes_running(marker) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    left = _processes_running(marker)
    for pid in left:
        os.kill(pid, 9)
    # a setsid child leaves the process group: only namespaces catch it
    assert len(left) <= (1 if level == "process" else 0)
