"""`triadic validate FILE...`: load and validate each file, print every problem with its location.

Exit 0 when no file has an error (warnings are printed but pass), 1 when any has. A workflow with
sub-graph nodes is also compiled, so a sub-graph file that is missing, invalid or includes itself is
reported as `triadic run` would. Imports only the graph format, validation and compile modules (no
litellm, SQLAlchemy or Qt).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.errors import EXIT_FAILED, EXIT_OK, CliError
from app.cli.workflow_file import errors_of, load, problem_lines

if TYPE_CHECKING:
    from engine.graph.model import Workflow
    from engine.graph.problems import Problem


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
        if not errors_of(problems) and any(node.role == "subgraph" for node in workflow.nodes.values()):
            problems += _subgraph_problems(workflow, path)
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


def _subgraph_problems(workflow: Workflow, path: str) -> list[Problem]:
    """What compiling finds wrong with the workflow's sub-graphs (their files are read relative to it)."""
    from engine.runtime import CompileError, compile_workflow

    try:
        compile_workflow(workflow, base_dir=Path(path).resolve().parent)
    except CompileError as exc:
        return list(getattr(exc, "problems", None) or [])
    return []
