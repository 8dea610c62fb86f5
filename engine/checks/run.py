"""`run_check`: the one entry point verifiers use, dispatching on the check kind.

Invariant: it never raises for anything the subject or the check's configuration does; every
outcome, including timeouts and bad configuration, is a `Verdict` with a reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.checks.command_check import check_command
from engine.checks.expression import check_python, check_regex
from engine.checks.json_schema_check import check_json_schema_bounded
from engine.checks.sandbox import SandboxLimits
from engine.checks.sql_check import check_sql
from engine.checks.verdict import Verdict, broken

CHECK_KINDS = ("python", "json_schema", "regex", "command", "sql")


async def run_check(kind: str, expression: str, subject: Any, *, timeout_s: float,
                    workdir: str | None = None, limits: SandboxLimits | None = None) -> Verdict:
    """Run one deterministic check of `kind` over `subject` and return its verdict."""
    if timeout_s <= 0:
        return broken(f"timeout_s must be positive, got {timeout_s}")
    if workdir is not None and not Path(workdir).is_dir():
        return broken(f"the check's workdir {workdir!r} is not a directory")
    try:
        return await _dispatch(kind, expression, subject, timeout_s=timeout_s, workdir=workdir, limits=limits)
    except OSError as exc:  # the sandbox could not start (no /bin/sh, disk full, ...)
        return broken(f"the {kind} check could not run: {exc}")


async def _dispatch(kind: str, expression: str, subject: Any, *, timeout_s: float, workdir: str | None,
                    limits: SandboxLimits | None) -> Verdict:
    if kind == "python":
        return await check_python(expression, subject, timeout_s=timeout_s, workdir=workdir, limits=limits)
    if kind == "json_schema":
        return await check_json_schema_bounded(expression, subject, timeout_s=timeout_s)
    if kind == "regex":
        return await check_regex(expression, subject, timeout_s=timeout_s, limits=limits)
    if kind == "command":
        return await check_command(expression, subject, timeout_s=timeout_s, workdir=workdir, limits=limits)
    if kind == "sql":
        return await check_sql(expression, subject, timeout_s=timeout_s, workdir=workdir, limits=limits)
    return broken(f"unknown check kind {kind!r}; expected one of {', '.join(CHECK_KINDS)}")
