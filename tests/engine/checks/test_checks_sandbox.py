"""The sandbox: minimal env, temp dir, limits, timeouts that kill the whole process group."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from engine.checks.sandbox import SandboxLimits, run_sandboxed, sandbox_python


def _gone(marker: str) -> bool:
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        if not _processes_running(marker):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.asyncio
async def test_child_sees_no_parent_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    monkeypatch.setenv("TRIADIC_TOKEN", "hunter2")
    result = await run_sandboxed(["/bin/sh", "-c", "env"], timeout_s=10)
    assert result.returncode == 0
    assert "sk-test-secret" not in result.stdout and "hunter2" not in result.stdout
    names = {line.split("=", 1)[0] for line in result.stdout.splitlines() if "=" in line}
    assert "OPENAI_API_KEY" not in names and "PATH" in names


@pytest.mark.asyncio
async def test_runs_in_a_temp_copy_of_workdir(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("original\n")
    result = await run_sandboxed(
        ["/bin/sh", "-c", "cat data.txt; echo changed > data.txt; cat extra.txt; pwd"],
        timeout_s=10, workdir=str(tmp_path), files={"extra.txt": b"!\n"})
    lines = result.stdout.split()
    assert lines[0] == "original" and lines[1] == "!"
    assert (tmp_path / "data.txt").read_text() == "original\n"
    assert not Path(lines[2]).exists()  # the sandbox dir is removed afterwards


@pytest.mark.asyncio
async def test_timeout_kills_the_whole_process_group() -> None:
    code = "import subprocess, time; subprocess.Popen(['sleep', '60.125']); time.sleep(60)"
    started = time.monotonic()
    result = await run_sandboxed([sandbox_python(), "-I", "-c", code], timeout_s=1.0)
    assert time.monotonic() - started < 6
    assert result.timed_out and result.returncode is None
    assert _gone("sleep 60.125")


@pytest.mark.asyncio
async def test_output_flood_is_cut_and_stopped() -> None:
    result = await run_sandboxed(["/bin/sh", "-c", "yes flood"], timeout_s=10,
                                 limits=SandboxLimits(output_cap=10_000))
    assert result.output_truncated and not result.timed_out
    assert len(result.stdout) <= 10_000


@pytest.mark.asyncio
async def test_fork_bomb_is_stopped_by_the_process_limit() -> None:
    code = "import os; os.fork() or os.execv('/bin/sleep', ['sleep', '60.375'])\nwhile True: os.fork()"
    started = time.monotonic()
    result = await run_sandboxed([sandbox_python(), "-I", "-c", code], timeout_s=5.0,
                                 limits=SandboxLimits(extra_processes=16, output_cap=20_000))
    assert time.monotonic() - started < 10
    assert result.returncode != 0
    assert "Resource temporarily unavailable" in result.stderr or result.timed_out
    assert _gone("sleep 60.375")


@pytest.mark.asyncio
async def test_memory_and_file_size_limits() -> None:
    grab = await run_sandboxed([sandbox_python(), "-I", "-c", "x = bytearray(600 * 2**20)"], timeout_s=10,
                               limits=SandboxLimits(memory_bytes=256 << 20))
    assert grab.returncode != 0 and "MemoryError" in grab.stderr
    big = await run_sandboxed(["/bin/sh", "-c", "head -c 200000 /dev/zero > big.bin"], timeout_s=10,
                              limits=SandboxLimits(file_bytes=50_000))
    assert big.returncode != 0


@pytest.mark.asyncio
async def test_python_is_the_sandbox_interpreter() -> None:
    result = await run_sandboxed(["/bin/sh", "-c", "python -c 'import sys; print(sys.flags.isolated)'"],
                                 timeout_s=10)
    assert result.returncode == 0 and result.stdout.strip() == "0"
    assert os.path.exists(sandbox_python()) and sys.executable


def _processes_running(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.asyncio
async def test_cancelling_the_caller_kills_the_sandbox() -> None:
    import asyncio

    marker = f"sleep 61.{os.getpid()}"  # this test's own processes, not another checkout's running it too
    task = asyncio.create_task(run_sandboxed(["/bin/sh", "-c", f"{marker} & {marker}; wait"], timeout_s=60))
    deadline = time.monotonic() + 20
    while not _processes_running(marker) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert _processes_running(marker)
    cancelled_at = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - cancelled_at < 4.0
    deadline = time.monotonic() + 3
    while _processes_running(marker) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert _processes_running(marker) == []
