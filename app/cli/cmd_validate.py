"""`triadic validate FILE...`: load and validate each file, print every problem with its location.

Exit 0 when no file has an error (warnings are printed but pass), 1 when any has. Imports only the
graph format and validation modules (no litellm, SQLAlchemy or Qt).
"""

from __future__ import annotations

import argparse

from app.cli.errors import EXIT_FAILED, EXIT_OK, CliError
from app.cli.workflow_file import errors_of, load, problem_lines


def execute(args: argparse.Namespace) -> int:
    from engine.graph.validate import validate

    failed = 0
    for path in args.files:
        try:
            workflow = load(path)
        except CliError as exc:
            print(exc.message)
            failed += 1
            continue
        problems = validate(workflow)
        for line in problem_lines(path, problems):
            print(line)
        errors = errors_of(problems)
        warnings = len(problems) - len(errors)
        if errors:
            failed += 1
            print(f"{path}: invalid — {len(errors)} error(s), {warnings} warning(s)")
        else:
            print(f"{path}: ok ({len(workflow.nodes)} nodes, {len(workflow.edges)} edges"
                  f"{f', {warnings} warning(s)' if warnings else ''})")
    return EXIT_FAILED if failed else EXIT_OK
