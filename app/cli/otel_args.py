"""Arguments of the export commands — `triadic otel RUN...`, `triadic run --otel URL`, `triadic
export-script FILE` (the parsers only; the work is in `cmd_otel` / `otel_export` / `cmd_export_script`,
imported when a command runs)."""

from __future__ import annotations

import argparse
from typing import Any

_CONTENT_HELP = "also export prompts, replies, tool arguments and results, verdict reasons (keys never)"


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text}")
    return value


def add_otel_parser(sub: Any, db_help: str) -> None:
    otel = sub.add_parser(
        "otel", help="export runs as OpenTelemetry traces (OTLP)",
        description="Export stored runs as OpenTelemetry traces (GenAI semantic conventions): to an OTLP/HTTP "
                    "receiver (Phoenix, Langfuse, Jaeger, a collector) or to a file of OTLP JSON lines. "
                    "Exporting a run again sends the same trace and span ids.",
        epilog="exit codes: 0 exported, 1 the receiver or file did not take the export, 2 bad input "
               "(unknown run, bad URL)")
    otel.add_argument("run_ids", nargs="+", metavar="RUN", help="run id or a unique prefix of it")
    to = otel.add_mutually_exclusive_group(required=True)
    to.add_argument("--endpoint", metavar="URL",
                    help="OTLP/HTTP receiver, e.g. http://127.0.0.1:4318 (/v1/traces is added to a bare address)")
    to.add_argument("--file", metavar="PATH", help="write OTLP JSON, one export request per run per line")
    otel.add_argument("--include-content", action="store_true", help=_CONTENT_HELP)
    otel.add_argument("--timeout", type=_timeout, default=10.0, metavar="SECONDS",
                      help="give up on the receiver after this long (default 10)")
    otel.add_argument("--db", metavar="PATH", help=db_help)


def add_run_otel_options(run: argparse.ArgumentParser) -> None:
    group = run.add_argument_group("OpenTelemetry (the run is exported when it ends; a failed export "
                                   "does not fail the run)")
    group.add_argument("--otel", metavar="URL", help="send the run to this OTLP/HTTP receiver")
    group.add_argument("--otel-include-content", action="store_true", help=_CONTENT_HELP)


def add_export_script_parser(sub: Any) -> None:
    script = sub.add_parser(
        "export-script", help="write a workflow as a standalone Python script",
        description="Write FILE as a Python script that embeds the workflow and runs it headless on the "
                    "engine with the options of 'triadic run' (see the script's --help).")
    script.add_argument("file", metavar="FILE", help="workflow file (*.triadic.json)")
    script.add_argument("-o", "--output", metavar="PATH", help="where to write the script (default: stdout)")
