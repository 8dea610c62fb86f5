"""Reading a workflow document's JSON text safely: parse errors with line/column, and size limits.

Invariants: every failure is a `WorkflowFileError` (never `RecursionError`, `ValueError`, ...);
`NaN` / `Infinity` / out-of-range numbers are refused, so every number in a loaded document is
finite; strings hold no lone surrogates, so whatever loads can be saved again as UTF-8.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from engine.graph.problems import WorkflowFileError, file_error

MAX_FILE_BYTES = 50_000_000
MAX_DEPTH = 100
MAX_STRING_CHARS = 1_000_000
MAX_NODES = 100_000
MAX_EDGES = 500_000

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _BadNumberError(ValueError):
    pass


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumberError(f"the number {text[:40]} is too large")
    return value


def _parse_constant(name: str) -> float:
    raise _BadNumberError(f"{name} is not a valid JSON number")


def parse_json(text: str, source: str) -> Any:
    """The JSON value in `text`, after the limits in this module are checked."""
    if len(text) > MAX_FILE_BYTES:
        raise file_error(source, "too_large", f"The file is larger than {MAX_FILE_BYTES:,} bytes.")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise file_error(source, "bad_text", f"The text holds an invalid character (a lone surrogate) "
                             f"at position {exc.start}.") from exc
    try:
        value = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise file_error(source, "json_syntax",
                         f"Not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}.") from exc
    except RecursionError as exc:
        raise _too_deep(source) from exc
    except ValueError as exc:  # a bad number: NaN, 1e999, an integer with thousands of digits
        raise file_error(source, "json_number", f"Not a valid workflow file: {exc}.") from exc
    check_limits(value, source, from_text=text)
    return value


def _too_deep(source: str) -> WorkflowFileError:
    return file_error(source, "too_deep", f"The document is nested more than {MAX_DEPTH} levels deep.")


def check_limits(value: Any, source: str, *, from_text: str | None = None) -> None:
    """Refuse values nested too deeply, over-long strings, lone surrogates, non-JSON values, too many nodes.

    With `from_text` (the JSON text `value` was parsed from) the checks the text already settles are
    skipped: no string is longer than the text, and lone surrogates need a ``\\uD8xx``-style escape.
    """
    # What each string needs: every check (no text, or a text with a surrogate escape), only its
    # length (a text longer than the limit: one string in it might be), or nothing.
    full = from_text is None or _SURROGATE_ESCAPE.search(from_text) is not None
    lengths = not full and len(from_text or "") > MAX_STRING_CHARS
    if isinstance(value, str):
        _check_string(value, source)
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _too_deep(source)
        if isinstance(item, dict):
            children: Any = item.values()
            if full:
                for key in item:
                    if not isinstance(key, str):
                        raise file_error(source, "bad_key", f"The object key {key!r:.40} is not text.")
                    _check_string(key, source)
            elif lengths:
                for key in item:
                    if len(key) > MAX_STRING_CHARS:
                        _check_string(key, source)
        else:
            children = item
        for sub in children:
            kind = type(sub)
            if kind is dict or kind is list:
                stack.append((sub, depth + 1))
            elif kind is str:
                if full or (lengths and len(sub) > MAX_STRING_CHARS):
                    _check_string(sub, source)
            elif from_text is None:
                _check_scalar(sub, source)
    if isinstance(value, dict):
        for key, limit in (("nodes", MAX_NODES), ("edges", MAX_EDGES)):
            items = value.get(key)
            if isinstance(items, list) and len(items) > limit:
                raise file_error(source, "too_many", f"The workflow has {len(items):,} {key}; at most "
                                 f"{limit:,} are supported.", field=key)


def _check_scalar(item: Any, source: str) -> None:
    if isinstance(item, dict | list | str):  # subclasses of the JSON containers are checked as such
        raise file_error(source, "bad_value", f"The document holds a {type(item).__name__}; only plain "
                         "JSON values are supported.")
    if isinstance(item, float) and not math.isfinite(item):
        raise file_error(source, "json_number", "The document holds a number that is not finite.")
    if item is not None and not isinstance(item, bool | int | float):
        raise file_error(source, "bad_value", f"The document holds a {type(item).__name__}, "
                         "which is not a JSON value.")


def _check_string(text: str, source: str) -> None:
    if len(text) > MAX_STRING_CHARS:
        raise file_error(source, "string_too_long", f"A text of {len(text):,} characters starting "
                         f"{text[:30]!r} is longer than the {MAX_STRING_CHARS:,} allowed.")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise file_error(source, "bad_text", f"The text starting {text[:30]!r} holds an invalid "
                             "character (a lone surrogate).") from exc
