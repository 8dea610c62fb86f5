"""`triadic export-script FILE -o script.py`: the workflow as a standalone Python script
(`engine.export.script`). A file that does not load or validate is exit 2 naming the problems; a script
that cannot be written is exit 2 naming the path. `-o -` (the default) prints the script."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from app.cli.errors import EXIT_OK, CliError


def execute(args: argparse.Namespace) -> int:
    from engine.export.script import ScriptExportError, workflow_script

    source = Path(args.file)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        script = workflow_script(text, source=str(source))
    except ScriptExportError as exc:
        raise CliError(str(exc)) from None
    if args.output in (None, "-"):
        sys.stdout.write(script)
        return EXIT_OK
    target = Path(args.output)
    try:
        target.write_text(script, encoding="utf-8")
        os.chmod(target, 0o755)
    except OSError as exc:
        raise CliError(f"cannot write {target}: {exc.strerror or exc}") from None
    print(f"wrote {target} (run it with: python {target} --help)")
    return EXIT_OK
