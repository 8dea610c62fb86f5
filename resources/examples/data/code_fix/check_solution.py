"""Test script for the code-fix example (no pytest needed): exit 0 when every case passes.

The candidate solution is the file named by $SUBJECT (or stdin); Markdown code fences around it are
removed. Failures print as "FAILED <case>: ..." lines and a "== N failed, M passed ==" summary,
which the `command` check turns into reasons the author model can act on.
Run: `python check_solution.py` inside the sandbox (workdir = this folder).
"""

from __future__ import annotations

import os
import re
import sys

CASES = [("1h30m", 5400), ("45s", 45), ("2h", 7200), ("1h 5m 10s", 3910), ("90m", 5400),
         ("120", 120), ("1H2M3S", 3723), ("0s", 0)]
INVALID = ["", "abc", "5x", "1m1h", "1h1h", "-5s", "h"]


def load_source() -> str:
    path = os.environ.get("SUBJECT")
    if path:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    else:
        text = sys.stdin.read()
    fenced = re.search(r"```(?:python|py)?\s*\n(.*?)```", text, re.DOTALL)
    return fenced.group(1) if fenced else text


def main() -> int:
    namespace: dict[str, object] = {"__name__": "solution"}
    try:
        exec(compile(load_source(), "solution.py", "exec"), namespace)
    except Exception as exc:
        print(f"FAILED import: {type(exc).__name__}: {exc}")
        return 1
    func = namespace.get("parse_duration")
    if not callable(func):
        print("FAILED import: no function named parse_duration")
        return 1
    failed = passed = 0
    for text, expected in CASES:
        try:
            got = func(text)
        except Exception as exc:
            got = f"{type(exc).__name__}: {exc}"
        if got == expected:
            passed += 1
        else:
            failed += 1
            print(f"FAILED parse_duration({text!r}): expected {expected}, got {got!r}")
    for text in INVALID:
        try:
            got = func(text)
        except ValueError:
            passed += 1
            continue
        except Exception as exc:
            got = f"{type(exc).__name__}: {exc}"
        failed += 1
        print(f"FAILED parse_duration({text!r}): expected ValueError, got {got!r}")
    print(f"{'=' * 10} {failed} failed, {passed} passed {'=' * 10}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
