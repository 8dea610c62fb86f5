"""Small pure formatters for durations, tokens, money, times and long text in CLI output."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sys
from typing import Any

from rich.console import Console

PIPE_WIDTH = 160  # rich assumes 80 columns off a terminal; tables in logs read better wider


def is_terminal(stream: Any) -> bool:
    """Whether `stream` is an open terminal: False for a pipe or a file, and for a standard stream the
    process was started without (`sys.stdin` is None when `triadic run ... <&-`) or that is closed."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except (OSError, ValueError):  # closed
        return False


def console() -> Console:
    """A console on stdout: the terminal's width on a TTY, else $COLUMNS or `PIPE_WIDTH`."""
    width = None if is_terminal(sys.stdout) or os.environ.get("COLUMNS") else PIPE_WIDTH
    return Console(highlight=False, width=width)


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.2f} s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"


def tokens(n_in: int, n_out: int) -> str:
    return f"{n_in:,}/{n_out:,}"


def cost(usd: float) -> str:
    if usd == 0:
        return "$0"
    if usd < 0.01:
        return "$" + f"{usd:.6f}".rstrip("0").rstrip(".") if usd >= 5e-7 else "<$0.000001"
    return f"${usd:.4f}" if usd < 10 else f"${usd:,.2f}"


def when(value: Any) -> str:
    """A wall-clock time (datetime, epoch seconds or ISO text) as local 'YYYY-MM-DD HH:MM:SS'."""
    if value is None or value == "":
        return "-"
    moment: dt.datetime | None = value if isinstance(value, dt.datetime) else None
    if isinstance(value, int | float):
        moment = dt.datetime.fromtimestamp(value)
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    if moment is None:
        return str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S")


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_C1 = re.compile("[\x80-\x9f]")


def safe(text: str) -> str:
    """`text` with terminal control characters (ESC, CSI, BEL, CR, ...) shown as `\\xNN` instead of
    acting on the terminal: inputs and model output are not trusted to drive it. Newlines and tabs stay."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def json_line(record: Any) -> str:
    """One JSON object per line; C1 controls (which JSON leaves raw) escaped too, so a terminal showing
    the line is never driven by it."""
    line = json.dumps(record, ensure_ascii=False, default=str)
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def text(value: Any) -> str:
    """A value as readable, terminal-safe text: strings as-is, everything else as indented JSON."""
    if isinstance(value, str):
        return safe(value)
    try:
        return safe(json.dumps(value, indent=2, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return safe(repr(value))


def one_line(value: Any, limit: int = 100) -> str:
    flat = " ".join(text(value).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
