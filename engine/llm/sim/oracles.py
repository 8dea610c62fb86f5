"""Oracles: simulated authors that know the answer to one bundled example, so an offline run on the
simulated provider shows what the example is for (a loop that really converges) instead of text
that no check can pass. They are simulations, not solvers of arbitrary tasks: each is told where
the answer is (files) or computes it for one kind of puzzle.

Selected per node by `SimConfig.oracle` (the node's `sim` settings):
- "code_fix" — an author that learns from feedback. In round 0 it answers with the file
  `first_attempt` (a plausible first try that fails its check); in every later round — the
  runtime's `round` metadata, which grows only when a judge sent the work back with its reasons —
  it answers with `fixed_attempt`, headed by a comment quoting the failures it read in the
  feedback. The files are read from `data_dir` (relative: under the bundled examples data folder,
  resources/examples/data). The attempt's language is its file's: Python (`.py`, failing tests
  quoted, a leading module docstring — notes for maintainers — left out) or SQL (`.sql`, the
  SQLite errors the check reported quoted); the answer is a fenced block of that language.
- "hanoi" — a Tower of Hanoi solver that slips with probability `error_rate` (see `hanoi_oracle`).

An oracle answers only the roles it knows; for any other role `oracle_reply` returns None and the
normal writer answers. A misconfigured oracle (missing or unreadable file) raises `BadRequestError`
saying which setting is wrong.

Invariant: pure functions of (config, role, rng state, prompt, metadata) and the files read.
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.llm.sim.config import SimConfig
from engine.llm.sim.hanoi_oracle import hanoi_reply
from engine.llm.types import BadRequestError

EXAMPLES_DATA = Path(__file__).resolve().parents[3] / "resources" / "examples" / "data"
CODE_ROLES = frozenset({"executor", "worker", "map"})
MAX_QUOTED_FAILURES = 4


@dataclass(frozen=True)
class _Language:
    fence: str  # the answer's code fence
    comment: str  # what starts a comment line
    failure: re.Pattern[str]  # what the check's feedback says went wrong, one match per problem
    reported: str  # "fixed what <reported>:"


_LANGUAGES = {
    ".py": _Language("python", "#", re.compile(r"FAILED [^;\n]+"), "the tests reported"),
    ".sql": _Language("sql", "--", re.compile(r"SQLite error: [^;\n]+"), "the check reported"),
}


def oracle_reply(config: SimConfig, role: str, rng: random.Random, prompt: str, meta: dict[str, Any]) -> str | None:
    """The oracle's answer for this call, or None when no oracle is set or it does not answer `role`."""
    if config.oracle == "code_fix":
        return code_fix_reply(config, role, prompt, int(meta.get("round") or 0))
    if config.oracle == "hanoi":
        return hanoi_reply(role, rng, prompt, config.error_rate)
    return None


def code_fix_reply(config: SimConfig, role: str, prompt: str, round_: int) -> str | None:
    if role not in CODE_ROLES:
        return None
    language = _language(config)
    if round_ <= 0:
        return f"```{language.fence}\n{read_attempt(config, 'first_attempt')}```"
    failures = list(dict.fromkeys(m.group(0).strip() for m in language.failure.finditer(prompt)))
    note = language.comment
    if failures:
        shown = failures[:MAX_QUOTED_FAILURES]
        more = len(failures) - len(shown)
        header = [f"{note} Revision {round_}: fixed what {language.reported}:", *(f"{note}   {f}" for f in shown)]
        if more:
            header.append(f"{note}   ... and {more} more")
    else:
        header = [f"{note} Revision {round_}: addressed the reviewer's feedback."]
    return f"```{language.fence}\n" + "\n".join(header) + "\n" + read_attempt(config, "fixed_attempt") + "```"


def _language(config: SimConfig) -> _Language:
    name = str(config.first_attempt)
    if not name:
        read_attempt(config, "first_attempt")  # raises: says the setting is missing
    language = _LANGUAGES.get(Path(name).suffix.lower())
    if language is None:
        raise BadRequestError(f"metadata.sim: oracle 'code_fix' answers Python (.py) or SQL (.sql) files, "
                              f"not {name!r}", provider="", model="sim")
    return language


def read_attempt(config: SimConfig, setting: str) -> str:
    """The attempt file named by `setting` ("first_attempt" / "fixed_attempt"), docstring left out."""
    name = str(getattr(config, setting))
    if not name:
        raise BadRequestError(f"metadata.sim: oracle 'code_fix' needs {setting} (a file under data_dir)",
                              provider="", model="sim")
    folder = Path(config.data_dir)
    path = (folder if folder.is_absolute() else EXAMPLES_DATA / folder) / name
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BadRequestError(f"metadata.sim: oracle 'code_fix' cannot read {setting} {str(path)!r}: "
                              f"{exc.strerror or exc}", provider="", model="sim") from None
    text = without_module_docstring(source) if path.suffix.lower() == ".py" else source
    return text if text.endswith("\n") else text + "\n"


def without_module_docstring(source: str) -> str:
    """`source` without its leading module docstring (unchanged if it has none or does not parse)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return source
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str) and first.end_lineno is not None):
        return "".join(source.splitlines(keepends=True)[first.end_lineno:]).lstrip("\n")
    return source


__all__ = ["EXAMPLES_DATA", "code_fix_reply", "oracle_reply", "read_attempt", "without_module_docstring"]
