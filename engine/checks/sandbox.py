"""Run untrusted code in a sandboxed subprocess: the only place checks execute subject code.

How strong the isolation is depends on the platform (`engine.checks.isolation`): with bubblewrap
and user namespaces the child has no network, no view of the engine's processes, environment or
the user's files, and dies with the engine; without them a weaker, process-level sandbox runs and
says so (`sandbox_strength()`, a logged warning). Invariants at both levels:
- the child gets a minimal environment built from scratch (PATH, HOME, LANG, TMPDIR and the
  caller's explicit `env`); nothing of the parent's environment (API keys, tokens) reaches it;
- it runs in a fresh temporary directory (a copy of `workdir` when one is given, so a check can
  never modify the originals), removed afterwards;
- resource limits (RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_NPROC) are set in the child before
  exec; when the engine runs as root the child drops to the `nobody` user, because the kernel
  ignores RLIMIT_NPROC for root;
- the child leads its own process group; on a wall timeout, an output flood or a cancel (also one
  that lands while the process starts) the whole group is killed (with namespaces: the whole PID
  namespace, `setsid` children included), and stragglers are killed when the leader exits;
- output is capped: past `output_cap` bytes the group is killed and `output_truncated` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import resource
import shutil
import signal
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.checks.isolation import INSIDE_DIR, bwrap_argv, describe, drop_to, isolation, warn_if_weak

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
_SYSTEM_PYTHONS = ("/usr/local/bin/python3", "/usr/bin/python3")


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    cpu_s: int = 30
    memory_bytes: int = 1 << 30
    file_bytes: int = 32 << 20
    extra_processes: int = 32  # on top of what the sandbox user already runs
    output_cap: int = 1 << 20  # bytes of stdout + stderr kept
    drop_root: bool = True  # run as `nobody` when the engine runs as root


@dataclass(frozen=True, slots=True)
class SandboxResult:
    returncode: int | None  # None when the process was killed by the sandbox
    stdout: str
    stderr: str
    timed_out: bool = False
    output_truncated: bool = False
    duration_s: float = 0.0


def _sandbox_uid(limits: SandboxLimits) -> int | None:
    if not limits.drop_root or os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("nobody").pw_uid
    except KeyError:
        return 65534


def _world_executable(path: str) -> bool:
    """Whether any user may run `path`: the file and every directory above its real path are o+x."""
    real = Path(os.path.realpath(path))
    try:
        return all(p.stat().st_mode & stat.S_IXOTH for p in (real, *real.parents))
    except OSError:
        return False


def sandbox_python(limits: SandboxLimits | None = None) -> str:
    """The interpreter sandboxed Python runs with: `sys.executable`, unless the sandbox drops to
    `nobody` and that interpreter is not reachable by it (e.g. a pyenv under /root); then a system
    python3. Sandboxed scripts rely on the standard library only. In a bundled app (PyInstaller sets
    `sys.frozen`) `sys.executable` is the app itself, not an interpreter: the system python3 it is."""
    if getattr(sys, "frozen", False):
        return next((p for p in _SYSTEM_PYTHONS if _world_executable(p)), "python3")
    if _sandbox_uid(limits or SandboxLimits()) is None or _world_executable(sys.executable):
        return sys.executable
    return next((p for p in _SYSTEM_PYTHONS if _world_executable(p)), sys.executable)


def _tasks_of(uid: int) -> int:
    """How many tasks (threads count too, as for RLIMIT_NPROC) the user runs now."""
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as status:
                threads = next((ln for ln in status if ln.startswith("Threads:")), "Threads: 1")
            count += int(threads.split()[1])
        except (OSError, ValueError):
            continue
    return count


def sandbox_strength(limits: SandboxLimits | None = None) -> str:
    """One line saying how isolated checks that run code are here ("strong: ..." / "weak: ...").

    Qt-free, for the inspector of nodes that run code; the first call probes bubblewrap (~10 ms)."""
    return describe(isolation(_sandbox_uid(limits or SandboxLimits())))


def _preexec(limits: SandboxLimits, uid: int | None, nproc: int) -> Callable[[], None]:
    cpu = max(1, limits.cpu_s)
    switch = drop_to(uid)

    def apply() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if switch is not None:
            switch()
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))

    return apply


def _prepare_dir(workdir: str | os.PathLike[str] | None, uid: int | None, python: str) -> Path:
    root = Path(tempfile.mkdtemp(prefix="triadic-sandbox-"))
    if workdir is not None:
        shutil.copytree(workdir, root, dirs_exist_ok=True)
    bin_dir = root / ".bin"  # `python` / `python3` on PATH mean the sandbox interpreter
    bin_dir.mkdir(exist_ok=True)
    for name in ("python", "python3"):
        (bin_dir / name).symlink_to(python)
    if uid is not None:
        for path in (root, *root.rglob("*")):
            os.chown(path, uid, uid, follow_symlinks=False)
    return root


def _kill_group(pgid: int) -> None:
    for _ in range(3):  # twice more: a member may have been mid-fork during the first kill
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.005)


async def _read_capped(stream: asyncio.StreamReader, sink: bytearray, budget: list[int],
                       overflow: asyncio.Event) -> None:
    """Keep what fits in the shared budget, then drain and discard (so the pipe reaches EOF)."""
    while chunk := await stream.read(65536):
        keep = min(len(chunk), max(0, budget[0]))
        sink += chunk[:keep]
        budget[0] -= len(chunk)
        if budget[0] < 0:
            overflow.set()


async def run_sandboxed(
    argv: Sequence[str],
    *,
    timeout_s: float,
    stdin: bytes = b"",
    workdir: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    files: Mapping[str, bytes] | None = None,
    limits: SandboxLimits | None = None,
) -> SandboxResult:
    """Run `argv` sandboxed in a fresh temp dir (holding a copy of `workdir` and `files`).

    `env` values may use `{dir}` for the sandbox directory. Never raises on the child's behaviour:
    a timeout or an output flood is reported in the result.
    """
    limits = limits or SandboxLimits()
    uid = _sandbox_uid(limits)
    iso = await asyncio.to_thread(isolation, uid)
    if iso.level != "namespaces" and os.environ.get("TRIADIC_SANDBOX", "").strip().lower() == "bwrap":
        raise OSError(f"TRIADIC_SANDBOX=bwrap but {iso.reason}")
    warn_if_weak(iso)
    python = sandbox_python(limits)
    root = await asyncio.to_thread(_prepare_dir, workdir, uid, python)
    try:
        for name, content in (files or {}).items():
            (root / name).write_bytes(content)
            if uid is not None:
                os.chown(root / name, uid, uid)
        inside = INSIDE_DIR if iso.bwrap else str(root)
        base = {"PATH": f"{inside}/.bin:{SAFE_PATH}", "HOME": inside, "TMPDIR": inside,
                "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
        child_env = base | {k: v.replace("{dir}", inside) for k, v in (env or {}).items()}
        nproc = _tasks_of(os.geteuid() if uid is None else uid) + limits.extra_processes
        if iso.bwrap:  # bwrap clears the environment and sets the child's own inside
            argv, child_env = bwrap_argv(iso.bwrap, root, python, child_env, argv), {"PATH": SAFE_PATH}
            nproc += 2  # bwrap and its init
        return await _run(argv, stdin, root, child_env, limits, _preexec(limits, uid, nproc), timeout_s)
    finally:
        await asyncio.to_thread(shutil.rmtree, root, True)


async def run_process(argv: Sequence[str], *, stdin: bytes, timeout_s: float, cwd: str,
                      env: Mapping[str, str], limits: SandboxLimits) -> SandboxResult:
    """Run the engine's own code (never subject code) in a child bounded like a sandboxed one — clean
    environment plus `env`, CPU / memory / file / output limits, killed with its group on the timeout
    or a cancel — but without namespaces or a user switch (`engine.checks.bounded`)."""
    base = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"}
    nproc = _tasks_of(os.geteuid()) + limits.extra_processes
    return await _run(argv, stdin, Path(cwd), base | dict(env), limits, _preexec(limits, None, nproc), timeout_s)


async def _spawn(argv: Sequence[str], cwd: Path, env: dict[str, str],
                 preexec: Callable[[], None]) -> asyncio.subprocess.Process:
    """Start the child; a cancel that lands while it starts still kills it (and its group)."""
    spawn = asyncio.ensure_future(asyncio.create_subprocess_exec(
        *argv, cwd=cwd, env=env, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, preexec_fn=preexec, start_new_session=True, close_fds=True))
    try:
        return await asyncio.shield(spawn)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            proc = await asyncio.wait_for(asyncio.shield(spawn), 5.0)  # fork/exec: milliseconds
            _kill_group(proc.pid)
            await asyncio.wait_for(proc.wait(), 1.0)  # a setsid child (process level) holds pipes
        raise


async def _feed(proc: asyncio.subprocess.Process, data: bytes) -> None:
    assert proc.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        proc.stdin.write(data)
        await proc.stdin.drain()
        proc.stdin.close()


async def _run(argv: Sequence[str], stdin: bytes, cwd: Path, env: dict[str, str], limits: SandboxLimits,
               preexec: Callable[[], None], timeout_s: float) -> SandboxResult:
    started = time.perf_counter()
    proc = await _spawn(argv, cwd, env, preexec)
    assert proc.stdout is not None and proc.stderr is not None
    out, err, budget, overflow = bytearray(), bytearray(), [limits.output_cap], asyncio.Event()
    readers = asyncio.gather(_read_capped(proc.stdout, out, budget, overflow),
                             _read_capped(proc.stderr, err, budget, overflow))
    feeder = asyncio.ensure_future(_feed(proc, stdin))  # a child that never reads stdin cannot block us
    overflow_wait = asyncio.ensure_future(overflow.wait())
    exit_wait = asyncio.ensure_future(proc.wait())
    try:
        await asyncio.wait({exit_wait, overflow_wait}, timeout=timeout_s,
                           return_when=asyncio.FIRST_COMPLETED)
    finally:  # also on cancellation: the group never outlives the call
        killed = proc.returncode is None
        timed_out = killed and not overflow.is_set()
        _kill_group(proc.pid)
        overflow_wait.cancel()
        feeder.cancel()
        # bounded: a descendant that left the group may hold the pipes open (process level only)
        ending: set[asyncio.Future[Any]] = {exit_wait, readers}
        await asyncio.wait(ending, timeout=3.0)
        readers.cancel()
    return SandboxResult(
        returncode=None if killed else proc.returncode,
        stdout=out.decode("utf-8", "replace"), stderr=err.decode("utf-8", "replace"),
        timed_out=timed_out, output_truncated=overflow.is_set(),
        duration_s=time.perf_counter() - started)
