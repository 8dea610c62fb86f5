"""Python-expression and regex checks, both evaluated in the sandbox (never in the engine process).

A Python check's expression sees `subject` (plus `json`, `math`, `re`, and whatever names the
caller passes, e.g. `rows` for SQL checks). Its value becomes a verdict:
- a dict with "decision" (and optional score / reasons / claims) is taken as the verdict;
- a `(passed, reason)` pair approves or asks for a revision with that reason;
- a number is a score in 0..1 and approves at >= 0.5;
- anything else approves when truthy and asks for a revision when falsy.
A syntax error in the expression is the workflow author's mistake: "reject". A runtime error or a
timeout is caused by the subject: "revise" with the error, so the author model can fix it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine.checks.sandbox import SandboxLimits, run_sandboxed, sandbox_python
from engine.checks.verdict import Verdict, approve, broken, revise

MAX_EXPRESSION = 20_000
MAX_SUBJECT_BYTES = 8 << 20
_MARK = "\x1etriadic-result "

_RUNNER = r"""
import json, math, os, re, sys
data = json.loads(sys.stdin.buffer.read())
if data.get("import_cwd"):
    sys.path.insert(0, os.getcwd())
names = {"json": json, "math": math, "re": re, **data["names"]}
try:
    out = {"status": "ok", "value": eval(compile(data["expression"], "<check>", "eval"), names)}
except Exception as exc:
    out = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
sys.stdout.flush()
try:
    line = json.dumps(out, default=repr)
except (TypeError, ValueError):
    line = json.dumps({"status": "ok", "value": repr(out.get("value"))})
sys.stdout.write("\n" + MARK + line + "\n")
""".replace("MARK", repr(_MARK))

_REGEX = ("(lambda m: None if m is None else [m.group(0)[:200], m.start()])"
          "((re.fullmatch if full else re.search)(pattern, subject))")


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return str(value)


async def evaluate(expression: str, names: dict[str, Any], *, timeout_s: float,
                   workdir: str | None = None, limits: SandboxLimits | None = None
                   ) -> tuple[str, Any]:
    """Evaluate in the sandbox; returns ("ok", value) or (problem, message) where problem is
    "syntax", "error", "timeout", "output" or "crash"."""
    if len(expression) > MAX_EXPRESSION:
        return "syntax", f"expression is {len(expression)} characters long (limit {MAX_EXPRESSION})"
    try:
        compile(expression, "<check>", "eval")
    except (SyntaxError, ValueError) as exc:
        where = f" at line {exc.lineno}, column {exc.offset}" if isinstance(exc, SyntaxError) else ""
        return "syntax", f"invalid Python expression{where}: {exc.msg if isinstance(exc, SyntaxError) else exc}"
    payload = json.dumps({"expression": expression, "import_cwd": workdir is not None,
                          "names": {k: _jsonable(v) for k, v in names.items()}}).encode()
    if len(payload) > MAX_SUBJECT_BYTES:
        return "error", f"subject is {len(payload)} bytes, over the {MAX_SUBJECT_BYTES}-byte limit"
    result = await run_sandboxed([sandbox_python(limits), "-I", "-c", _RUNNER], stdin=payload,
                                 timeout_s=timeout_s, workdir=workdir, limits=limits)
    if result.timed_out:
        return "timeout", f"the check did not finish within {timeout_s:g} s (infinite loop?)"
    if result.output_truncated:
        return "output", "the check printed more output than the sandbox allows and was stopped"
    marked = [ln for ln in result.stdout.split("\n") if ln.startswith(_MARK)]
    if not marked:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        return "crash", f"the check process died (exit code {result.returncode}): {tail}"
    out = json.loads(marked[-1][len(_MARK):])
    return ("ok", out["value"]) if out["status"] == "ok" else ("error", out["error"])


def verdict_from_value(value: Any, expression: str) -> Verdict:
    shown = expression if len(expression) <= 120 else expression[:117] + "..."
    if isinstance(value, dict) and "decision" in value:
        try:
            return Verdict.from_record(value)
        except ValueError as exc:
            return broken(f"the check returned a malformed verdict: {exc}")
    if isinstance(value, list | tuple) and len(value) == 2 and isinstance(value[0], bool):
        return approve(str(value[1])) if value[0] else revise(str(value[1]))
    if isinstance(value, int | float) and not isinstance(value, bool):
        score = float(value)
        decide = approve if score >= 0.5 else revise
        return decide(f"{shown} scored {score:g}", score=score)
    if value:
        return approve(f"{shown} holds")
    return revise(f"{shown} is {value!r} for this subject")


def problem_verdict(problem: str, message: str) -> Verdict:
    return broken(message) if problem == "syntax" else revise(message)


async def check_python(expression: str, subject: Any, *, timeout_s: float,
                       workdir: str | None = None, limits: SandboxLimits | None = None) -> Verdict:
    status, value = await evaluate(expression, {"subject": subject}, timeout_s=timeout_s,
                                   workdir=workdir, limits=limits)
    return verdict_from_value(value, expression) if status == "ok" else problem_verdict(status, value)


async def check_regex(expression: str, subject: Any, *, timeout_s: float,
                      limits: SandboxLimits | None = None) -> Verdict:
    """`expression` is a pattern; prefix "fullmatch:" to require the whole subject to match."""
    full = expression.startswith("fullmatch:")
    pattern = expression.removeprefix("fullmatch:").removeprefix("search:")
    try:
        re.compile(pattern)
    except re.error as exc:
        return broken(f"invalid regular expression at position {exc.pos}: {exc.msg}")
    text = subject if isinstance(subject, str) else json.dumps(_jsonable(subject))
    status, value = await evaluate(_REGEX, {"pattern": pattern, "subject": text, "full": full},
                                   timeout_s=timeout_s, limits=limits)
    if status != "ok":
        return problem_verdict(status, value)
    how = "fully match" if full else "contain a match for"
    if value is None:
        return revise(f"the subject does not {how} /{pattern}/")
    return approve(f"matched {value[0]!r} at offset {value[1]}")
