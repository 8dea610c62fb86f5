"""Entry point of the `triadic` console script: argument parsing and dispatch to the commands.

Invariants: this module imports only the standard library and the CLI's light modules, so
`triadic --help` starts fast; each command module (and litellm, SQLAlchemy, PySide6 behind it) is
imported only when that command runs. Expected failures are `CliError`s printed as one line on
stderr with their exit code (0 ok, 1 failed run, 2 bad input/usage, 130 interrupted).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from app.cli.bundle_args import add_bundle_parsers
from app.cli.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, CliError
from app.cli.otel_args import add_export_script_parser, add_otel_parser, add_run_otel_options
from app.cli.replay_args import add_determinism_parser, add_diff_parser, add_replay_parsers
from app.version import VersionAction

_COMMANDS = {
    "run": "app.cli.cmd_run",
    "validate": "app.cli.cmd_validate",
    "runs": "app.cli.cmd_runs",
    "show": "app.cli.cmd_show",
    "gui": "app.cli.cmd_gui",
    "replay": "app.cli.cmd_replay",
    "fork": "app.cli.cmd_fork",
    "diff": "app.cli.cmd_diff",
    "check-determinism": "app.cli.cmd_determinism",
    "export": "app.cli.cmd_export",
    "import": "app.cli.cmd_import",
    "check": "app.cli.cmd_check",
    "keys": "app.cli.cmd_keys",
    "prune": "app.cli.cmd_prune",
    "vacuum": "app.cli.cmd_vacuum",
    "self-test": "app.cli.cmd_self_test",
    "otel": "app.cli.cmd_otel",
    "export-script": "app.cli.cmd_export_script",
}
_EPILOG = """examples:
  triadic run resources/examples/triad.triadic.json --input goal='Plan a garden'
  triadic runs --limit 5
  triadic show 3f2a --events
  triadic replay 3f2a                      # re-run from the recording: no provider call
  triadic fork 3f2a --at executor --model sim/gpt-4o-mini
  triadic diff 3f2a 9c1e                   # what differs between two runs
  triadic export 3f2a -o run.triadic-run   # one file: events, workflow version, recording
  triadic import run.triadic-run           # add it to this store (then replay or fork it)
  triadic prune --older-than 30 --keep 10 --dry-run
  triadic check-determinism resources/examples/hanoi.triadic.json -n 5 --vary-seed
  triadic check 3f2a 9c1e                  # past runs against their workflow's trace contracts
  triadic otel 3f2a --endpoint http://127.0.0.1:4318   # the run as an OpenTelemetry trace
  triadic export-script resources/examples/triad.triadic.json -o triad.py

exit codes: 0 success, 1 the run failed / was cancelled / exceeded a budget (validate: a file has
errors; diff: the runs differ; check-determinism: a node's output varied; check: a contract was violated), 2 bad input or usage, 3 the run's
trace could not be fully recorded, 130 interrupted with Ctrl-C."""
_DB_HELP = "trace database (default: $TRIADIC_DB or the user data dir)"


class _Parser(argparse.ArgumentParser):
    """argparse that raises `CliError` instead of exiting, so `main` owns every exit code."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="triadic", description="Run, validate and inspect Triadic agent workflows.",
                     epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", "-V", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    run = sub.add_parser("run", help="run a workflow with live progress", description="Run a workflow file.")
    run.add_argument("file", metavar="FILE", help="workflow file (*.triadic.json)")
    run.add_argument("--input", "-i", action="append", default=[], metavar="NAME=VALUE",
                     help="value of a run input (repeatable; VALUE @path reads a file, @- stdin)")
    run.add_argument("--model-override", "-m", action="append", default=[], metavar="ROLE=MODEL",
                     help="use MODEL for every node of ROLE (repeatable)")
    run.add_argument("--db", metavar="PATH", help=_DB_HELP)
    gate = run.add_mutually_exclusive_group()
    gate.add_argument("--auto-approve", action="store_true", help="approve every human gate")
    gate.add_argument("--auto-reject", action="store_true", help="reject every human gate")
    out = run.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object per event")
    out.add_argument("--quiet", "-q", action="store_true", help="no live progress; status and outputs only")
    run.add_argument("--stream", action="store_true", help="show the text of the running LLM call")
    limits = run.add_argument_group("run limits (this run only; the file keeps its own settings)")
    limits.add_argument("--max-cost", type=_amount(float), metavar="USD", help="cost budget of the run in USD")
    limits.add_argument("--max-tokens", type=_amount(int), metavar="N", help="token budget of the run")
    limits.add_argument("--deadline", type=_amount(float), metavar="SECONDS", help="wall-clock budget of the run")
    limits.add_argument("--seed", type=_amount(int), metavar="N", help="seed (the simulated provider's answers)")
    add_run_otel_options(run)

    val = sub.add_parser("validate", help="check workflow files", description="Check workflow files.")
    val.add_argument("files", nargs="+", metavar="FILE")

    runs = sub.add_parser("runs", help="list past runs", description="List past runs, newest first.")
    runs.add_argument("--db", metavar="PATH", help=_DB_HELP)
    runs.add_argument("--limit", "-n", type=_positive_int, default=20, metavar="N")
    runs.add_argument("--workflow", "-w", metavar="NAME", help="only runs of this workflow (name or id)")

    show = sub.add_parser("show", help="show one run in detail", description="Show one past run.")
    show.add_argument("run_id", metavar="RUN_ID", help="run id or a unique prefix of it")
    show.add_argument("--db", metavar="PATH", help=_DB_HELP)
    show.add_argument("--events", action="store_true", help="also dump every event as JSON")

    prune = sub.add_parser("prune", help="remove old runs from the trace store",
                           description="Remove runs that meet every rule given; live runs and the sources of "
                                       "replays or forks that stay are kept.")
    prune.add_argument("--older-than", type=_amount(float), metavar="DAYS", help="runs started more than DAYS ago")
    prune.add_argument("--keep", type=_amount(int), metavar="N", help="keep the newest N runs of each workflow")
    prune.add_argument("--dry-run", action="store_true", help="say what would be removed; remove nothing")
    prune.add_argument("--db", metavar="PATH", help=_DB_HELP)
    vacuum = sub.add_parser("vacuum", help="compact the trace database", description="Compact the trace database.")
    vacuum.add_argument("--db", metavar="PATH", help=_DB_HELP)

    add_replay_parsers(sub, _DB_HELP)
    add_bundle_parsers(sub, _DB_HELP)
    add_diff_parser(sub, _DB_HELP)
    add_determinism_parser(sub, _DB_HELP)
    check = sub.add_parser("check", help="check past runs against trace contracts",
                           description="Check past runs against the trace contracts of the workflow version "
                                       "each ran (or of --workflow FILE). Exit 1 when a contract is violated.")
    check.add_argument("run_ids", nargs="+", metavar="RUN", help="run id or a unique prefix of it")
    check.add_argument("--workflow", "-w", metavar="FILE", help="check against this file's contracts")
    check.add_argument("--db", metavar="PATH", help=_DB_HELP)
    add_otel_parser(sub, _DB_HELP)
    add_export_script_parser(sub)
    keys = sub.add_parser("keys", help="list, store or delete API keys (never shown)",
                          description="API keys of providers and servers, kept in the OS keyring.")
    keys.add_argument("action", nargs="?", choices=("list", "set", "delete"), default="list")
    keys.add_argument("target", nargs="*", metavar="TARGET",
                      help="provider name (openai) or server address (https://host/v1)")

    gui = sub.add_parser("gui", help="open the desktop app", description="Open the desktop app.")
    gui.add_argument("file", nargs="?", metavar="FILE")
    gui.add_argument("--db", metavar="PATH", help=_DB_HELP)
    # Not listed in --help: checks that an installed copy finds its parts (see app/cli/cmd_self_test.py).
    check = sub.add_parser("self-test", description="Check that this installation finds its parts, offline.")
    check.add_argument("--local", action="store_true", help="fail when the local model is not installed")
    return parser


def _amount(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number ≥ 0 of `kind` (0 means no limit, as in the run settings)."""
    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a {'whole ' if kind is int else ''}number, got {text!r}") from None
        if not value >= 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"expected a finite number ≥ 0, got {text}")
        return value

    return convert


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number ≥ 1, got {value}")
    return value


def _standard_streams_present() -> None:
    """A process started with a standard stream closed (`triadic run ... <&-`, `>&-`) has it as None:
    it reads as an empty input / writes to nowhere instead (a run must not crash or hang on it)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 - lives as long as the process


def main(argv: Sequence[str] | None = None) -> int:
    _standard_streams_present()
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        command = importlib.import_module(_COMMANDS[args.command])
        code: int = command.execute(args)
        return code
    except CliError as exc:
        sys.stdout.flush()
        print(f"triadic: {exc.message}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("triadic: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # --help / --version from argparse
        return exc.code if isinstance(exc.code, int) else 0
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug, not bad input: one line unless TRIADIC_DEBUG asks for the traceback
        if os.environ.get("TRIADIC_DEBUG"):
            raise
        print(f"triadic: internal error: {type(exc).__name__}: {exc} (set TRIADIC_DEBUG=1 for the traceback)",
              file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
