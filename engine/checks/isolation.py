"""Which isolation the check sandbox can use here, and the bubblewrap command line that gives it.

Two levels, chosen once per process (`isolation()`, cached):
- "namespaces": bubblewrap (`bwrap`) is installed and user namespaces work (probed by running it
  once). The child then has no network (own, empty network namespace), its own PID namespace
  (it sees and can signal only its own processes; when the sandbox's `bwrap` dies, everything in
  it dies, and `bwrap` dies with the engine), its own user, IPC and UTS namespaces, a new terminal
  session, and a filesystem made of read-only system folders (/usr, the Python it runs with, the
  bundled example data), a fresh /proc and /dev, and one writable folder, `/sandbox` (also /tmp, and
  $TMPDIR; when the Python or the data lives under /tmp, /tmp holds only those read-only binds).
  Nothing of $HOME, /root, /home, /tmp, /run or /etc beyond what the loader needs is visible.
- "process": the weaker fallback (no bubblewrap, user namespaces disabled, or
  TRIADIC_SANDBOX=process): a clean environment, its own session and resource limits, and the
  `nobody` user when the engine runs as root — but the network, the filesystem and, for a normal
  user, the engine's own processes are reachable. Never silent: `sandbox_strength()` says so, and
  the first check run logs a warning with how to get the strong level.
TRIADIC_SANDBOX=bwrap requires the strong level (a check that cannot have it fails).
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

INSIDE_DIR = "/sandbox"
DATA_DIR = Path(__file__).resolve().parents[2] / "resources" / "examples" / "data"
_ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/alternatives",
              "/etc/passwd", "/etc/group", "/etc/nsswitch.conf")
_INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)"
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Isolation:
    level: str  # "namespaces" or "process"
    bwrap: str | None  # path of the bwrap binary at the "namespaces" level
    reason: str  # why the level is what it is (shown with the fallback)


def _ro_system_args(python: str) -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for path in _ETC_FILES:
        args += ["--ro-bind-try", path, path]
    if python == sys.executable:  # a venv: its own folder and the Python it was made from
        prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}
    else:
        prefixes = {str(Path(os.path.realpath(python)).parent.parent)}
    for prefix in sorted(prefixes):
        if prefix != "/usr" and not prefix.startswith("/usr/"):
            args += ["--ro-bind-try", prefix, prefix]
    if DATA_DIR.is_dir():
        args += ["--ro-bind", str(DATA_DIR), str(DATA_DIR)]
    return args


def bwrap_argv(bwrap: str, root: Path, python: str, env: dict[str, str], argv: Sequence[str]) -> list[str]:
    """The full command line running `argv` inside bubblewrap with `root` as /sandbox."""
    system = _ro_system_args(python)
    # /tmp is the sandbox's own folder — unless the Python or the data it binds lives under /tmp (a
    # checkout or venv there): then /tmp holds those binds, and TMPDIR names the writable folder
    under_tmp = any(a.startswith("/tmp/") for a in system)
    args = [bwrap, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--clearenv", *system,
            "--proc", "/proc", "--dev", "/dev", "--bind", str(root), INSIDE_DIR,
            *([] if under_tmp else ["--symlink", INSIDE_DIR, "/tmp"]), "--chdir", INSIDE_DIR]
    for key, value in {"TMPDIR": INSIDE_DIR, **env}.items():
        args += ["--setenv", key, value]
    return [*args, "--remount-ro", "/dev", "--remount-ro", "/", "--", *argv]


def drop_to(uid: int | None) -> Callable[[], None] | None:
    """A preexec function that switches to `uid` (used when the engine runs as root)."""
    if uid is None:
        return None

    def switch() -> None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)

    return switch


def _probe(bwrap: str, uid: int | None) -> str | None:
    """None when bwrap runs a trivial command here, else what went wrong."""
    probe_dir = Path(tempfile.mkdtemp(prefix="triadic-probe-"))
    try:
        if uid is not None:
            os.chown(probe_dir, uid, uid)
        argv = bwrap_argv(bwrap, probe_dir, "/bin/sh", {}, ["/bin/true"])
        done = subprocess.run(argv, capture_output=True, timeout=10, preexec_fn=drop_to(uid), check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    finally:
        shutil.rmtree(probe_dir, ignore_errors=True)
    if done.returncode != 0:
        return (done.stderr.decode("utf-8", "replace").strip() or f"exit status {done.returncode}")[:300]
    return None


@functools.cache
def isolation(uid: int | None = None) -> Isolation:
    """The level checks run at in this process (probed once, as `uid` when the engine is root)."""
    wanted = os.environ.get("TRIADIC_SANDBOX", "auto").strip().lower()
    if wanted == "process":
        return Isolation("process", None, "TRIADIC_SANDBOX=process asks for the weaker sandbox")
    if not sys.platform.startswith("linux"):
        return Isolation("process", None, f"namespaces are Linux only (this is {sys.platform})")
    bwrap = shutil.which("bwrap", path="/usr/local/bin:/usr/bin:/bin")
    if bwrap is None:
        return Isolation("process", None, f"bubblewrap (bwrap) is not installed: {_INSTALL_HINT}")
    problem = _probe(bwrap, uid)
    if problem is not None:
        return Isolation("process", None, f"bubblewrap cannot create namespaces here ({problem}); "
                         "user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, "
                         "AppArmor's apparmor_restrict_unprivileged_userns)")
    return Isolation("namespaces", bwrap, "bubblewrap with user, network, PID, IPC and mount namespaces")


def describe(iso: Isolation) -> str:
    if iso.level == "namespaces":
        return ("strong: no network, no view of the engine's environment, processes or the user's "
                "files, a private writable folder only, killed with the run; CPU, memory, file, "
                "output and process limits (bubblewrap namespaces)")
    return ("weak: clean environment, own session, CPU/memory/file/output/process limits only — "
            "the code can reach the network and read the user's files"
            + (", but runs as `nobody`" if os.geteuid() == 0 else " and signal the engine")
            + f". Why: {iso.reason}")


_warned: list[bool] = []


def warn_if_weak(iso: Isolation) -> None:
    if iso.level != "namespaces" and not _warned:
        _warned.append(True)
        _log.warning("check sandbox is %s", describe(iso))
