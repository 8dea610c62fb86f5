"""What this Triadic is: version, git commit and the versions of the parts it ships with.

Shown by `triadic --version` and the Help → About box. A packaged build (wheel, sdist, bundle) carries
`app/build_info.json`, written by `packaging/stamp_build.py` from the tree it was built from; a source
checkout has no such file and asks git (only when asked: `--version` and About, never at start-up).

Invariant: cheap and import-light — standard library only; never imports PySide6 or litellm (their
versions come from the installed metadata, or from the stamp inside a bundle that has no metadata).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BUILD_INFO = Path(__file__).with_name("build_info.json")
PARTS = ("PySide6-Essentials", "litellm", "qasync", "sqlmodel", "pyqtgraph")
_ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(_ROOT), *args], capture_output=True, text=True, timeout=5,
                              check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def source_commit() -> str:
    """`<short hash>` of the checkout this module lives in, `+dirty` with uncommitted changes to
    tracked files; "unknown" outside a git checkout."""
    commit = _git("rev-parse", "--short=12", "HEAD") if (_ROOT / ".git").exists() else None
    if not commit:
        return "unknown"
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return f"{commit}+dirty" if dirty else commit


def _installed(name: str) -> str | None:
    from importlib import metadata  # ~30 ms to import: only when a version is asked for

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def build_info() -> dict[str, Any]:
    """{"version", "commit", "python", "parts": {distribution: version}, "packaged": bool}."""
    if BUILD_INFO.is_file():
        try:
            stamped = json.loads(BUILD_INFO.read_text(encoding="utf-8"))
            if isinstance(stamped, dict) and "version" in stamped:
                return {**stamped, "packaged": True}
        except (OSError, ValueError):
            pass
    parts = {name: v for name in PARTS if (v := _installed(name))}
    return {"version": _installed("triadic") or "0+unknown", "commit": source_commit(),
            "python": platform.python_version(), "parts": parts, "packaged": False}


def version_lines(info: dict[str, Any] | None = None) -> list[str]:
    """`triadic 0.1.0 (commit 1a2b3c4d5e6f)` then one line with Python and the main parts' versions."""
    info = info or build_info()
    head = f"triadic {info['version']} (commit {info['commit']})"
    parts: dict[str, str] = info.get("parts", {})
    tail = ", ".join([f"Python {info['python']}", *(f"{k} {v}" for k, v in parts.items())])
    return [head, tail]


class VersionAction(argparse.Action):
    """`--version`: print `version_lines()` and exit 0 (computed only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str = "show the version and git commit, then exit") -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print("\n".join(version_lines()))
        parser.exit(0)


__all__ = ["BUILD_INFO", "VersionAction", "build_info", "source_commit", "version_lines"]
