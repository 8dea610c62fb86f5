"""`triadic gui [FILE] [--db PATH]`: start the desktop app.

`app.gui` (and PySide6 behind it) is imported only here, when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.errors import CliError


def execute(args: argparse.Namespace) -> int:
    if args.file is not None and not Path(args.file).is_file():
        raise CliError(f"{args.file}: no such workflow file")
    try:
        from app.gui import launch
    except ImportError as exc:
        raise CliError(f"the desktop app cannot start: {exc}", code=1) from None
    code: int = launch(args.file, db=args.db)
    return code
