"""The values of `--input NAME=VALUE`: from the command line, a file (`@path`) or stdin (`@-`).

Invariants: a value is valid Unicode text (bytes that are not UTF-8 and lone surrogates become
U+FFFD, so the run can always be stored); a value that looks like an API key is refused before
anything runs (it would be stored in the trace and printed); `@@text` is the literal `@text`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.cli.errors import CliError

MAX_INPUT_BYTES = 64 << 20


def clean_text(text: str) -> str:
    """`text` with undecodable bytes and lone surrogates replaced by U+FFFD."""
    if not _has_surrogates(text):
        return text
    # undecodable argv bytes (\udc80-\udcff) back to bytes, then decoded with U+FFFD for what is not UTF-8;
    # any other lone surrogate is replaced directly
    out = []
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            out.append(ch.encode("utf-8", "surrogateescape"))
        else:
            out.append("\ufffd".encode() if "\ud800" <= ch <= "\udfff" else ch.encode("utf-8"))
    return b"".join(out).decode("utf-8", "replace")


def _has_surrogates(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _read(name: str, source: str) -> str:
    if source == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    else:
        try:
            with Path(source).open("rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise CliError(f"--input {name}=@{source}: cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise CliError(f"--input {name}=@{source}: larger than {MAX_INPUT_BYTES >> 20} MiB")
    return data.decode("utf-8", "replace")


def resolve_inputs(pairs: dict[str, str]) -> dict[str, str]:
    """Read `@file` / `@-` values, clean the text, refuse key-like values."""
    from engine.llm.redact import redact

    if sum(1 for v in pairs.values() if v == "@-") > 1:
        raise CliError("--input: only one input can be read from stdin (@-)")
    out: dict[str, str] = {}
    for name, raw in pairs.items():
        if raw.startswith("@@"):
            value = raw[1:]
        elif raw.startswith("@") and len(raw) > 1:
            value = _read(name, raw[1:])
        else:
            value = raw
        value = clean_text(value)
        if redact(value) != value:
            raise CliError(f"--input {name}: the value looks like an API key or a credential; it would be "
                           "stored in the trace and shown, so it is refused (keys go in the environment "
                           "or `triadic keys set`)")
        out[name] = value
    return out
