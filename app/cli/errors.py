"""The CLI's one error type: a clear one-line message plus the exit code it maps to.

Invariant: every expected failure (bad input, bad usage, unknown run) is raised as `CliError`; `main`
prints its message on stderr and returns its code — the user never sees a traceback for them.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOT_RECORDED = 3  # the run ran, but part of its trace could not be stored
EXIT_INTERRUPTED = 130


class CliError(Exception):
    """An error the user can fix; `message` names what is wrong and where."""

    def __init__(self, message: str, *, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
