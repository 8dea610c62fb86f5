"""Command check: a shell / test command run in the sandbox against the subject.

The subject is written to `subject.txt` in the sandbox directory, its path is in `$SUBJECT`, and
it is also the command's stdin. Exit status 0 approves; anything else asks for a revision with the
tail of stdout/stderr and, for pytest-style output, the failing tests summarised first. A timeout or
an output flood asks for a revision (the subject probably loops); a missing command rejects.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.checks.sandbox import SandboxLimits, run_sandboxed
from engine.checks.verdict import Verdict, approve, broken, revise

TAIL_LINES = 15
_FAILURE = re.compile(r"^(FAILED |ERROR |FAIL:|E   |AssertionError|.*Error: )")
_SUMMARY = re.compile(r"^=+ .*\b(failed|passed|error)\b.* =+$")


def summarise_failures(output: str) -> list[str]:
    """Pytest / unittest style failure lines and the final summary line, at most 10."""
    lines = output.splitlines()
    found = list(dict.fromkeys(ln.strip() for ln in lines if _FAILURE.match(ln)))[:10]
    found += [ln.strip("= ").strip() for ln in lines if _SUMMARY.match(ln)][-1:]
    return found


def _tail(text: str, label: str) -> list[str]:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return [f"{label}: " + "\n".join(lines[-TAIL_LINES:])] if lines else []


async def check_command(expression: str, subject: Any, *, timeout_s: float,
                        workdir: str | None = None, limits: SandboxLimits | None = None) -> Verdict:
    if not expression.strip():
        return broken("the command is empty")
    text = subject if isinstance(subject, str) else json.dumps(subject, default=str)
    data = text.encode("utf-8", "replace")
    result = await run_sandboxed(["/bin/sh", "-c", expression], stdin=data, timeout_s=timeout_s,
                                 workdir=workdir, files={"subject.txt": data},
                                 env={"SUBJECT": "{dir}/subject.txt"}, limits=limits)
    if result.timed_out:
        return revise(f"the command did not finish within {timeout_s:g} s and was killed",
                      *_tail(result.stdout, "stdout"))
    if result.output_truncated:
        return revise("the command printed more output than the sandbox allows and was stopped")
    if result.returncode == 0:
        return approve(f"`{expression}` exited with status 0", *summarise_failures(result.stdout)[-1:])
    if result.returncode == 127:
        return broken(f"command not found: {result.stderr.strip() or expression}")
    status = (f"exit status {result.returncode}" if result.returncode is not None and result.returncode >= 0
              else f"killed by signal {-(result.returncode or 0)} (resource limit?)")
    return revise(f"`{expression}` failed with {status}",
                  *summarise_failures(result.stdout + "\n" + result.stderr),
                  *_tail(result.stdout, "stdout"), *_tail(result.stderr, "stderr"))
