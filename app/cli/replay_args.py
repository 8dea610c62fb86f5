"""The arguments of `triadic replay`, `fork`, `diff` and `check-determinism` (standard library only:
`triadic --help` stays fast)."""

from __future__ import annotations

import argparse
from typing import Any


def add_replay_parsers(sub: Any, db_help: str) -> None:
    """`replay` and `fork`."""
    replay = sub.add_parser("replay", help="re-run a past run from its recording (no provider calls)",
                            description="Re-run a past run from its recording, as a new run.")
    _common(replay, db_help)
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--strict", action="store_true", help="stop (failed) where the run diverges (default)")
    how.add_argument("--fork-on-divergence", action="store_true",
                     help="where the run diverges, run that node and what follows live")

    fork = sub.add_parser("fork", help="re-run a past run live from a node on, with changes",
                          description="Fork a past run at a node's execution: before it served from the "
                                      "recording, the node and what follows live.")
    _common(fork, db_help)
    fork.add_argument("--at", required=True, metavar="NODE[#N]|SEQ",
                      help="the node (and its N-th execution, from 1), or an event's seq: its node's execution")
    fork.add_argument("--model", metavar="MODEL", help="the node's model in the fork")
    fork.add_argument("--prompt", metavar="TEXT",
                      help="the node's prompt in the fork (its prompt parameter, else its system prompt)")
    fork.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                      help="a parameter of the node in the fork (JSON or text; repeatable)")
    fork_gate = fork.add_mutually_exclusive_group()
    fork_gate.add_argument("--auto-approve", action="store_true", help="approve human gates the recording lacks")
    fork_gate.add_argument("--auto-reject", action="store_true", help="reject human gates the recording lacks")


def _common(parser: argparse.ArgumentParser, db_help: str) -> None:
    parser.add_argument("run_id", metavar="RUN", help="run id or a unique prefix of it")
    parser.add_argument("--file", metavar="FILE", help="today's workflow file: list the nodes that differ from "
                        "the recorded version (which is what runs); its folder resolves sub-graph paths")
    parser.add_argument("--db", metavar="PATH", help=db_help)
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object per event")
    out.add_argument("--quiet", "-q", action="store_true", help="no live progress; status and outputs only")


def add_diff_parser(sub: Any, db_help: str) -> None:
    diff = sub.add_parser("diff", help="compare two runs", description="Compare run B with run A.")
    diff.add_argument("run_a", metavar="A", help="run id or a unique prefix of it")
    diff.add_argument("run_b", metavar="B", help="run id or a unique prefix of it")
    diff.add_argument("--db", metavar="PATH", help=db_help)


def add_determinism_parser(sub: Any, db_help: str) -> None:
    check = sub.add_parser("check-determinism", help="run a workflow N times and say how consistent it is",
                           description="Run a workflow live N times with the same inputs; per node, how often "
                                       "the output is identical, and the spread of tokens, cost and duration.")
    check.add_argument("file", metavar="FILE", help="workflow file (*.triadic.json)")
    check.add_argument("-n", type=_at_least_two, default=5, metavar="N", help="how many runs (default 5)")
    check.add_argument("--input", "-i", action="append", default=[], metavar="NAME=VALUE",
                       help="value of a run input (repeatable)")
    check.add_argument("--vary-seed", action="store_true",
                       help="run i uses the file's seed + i (the simulated provider then varies its answers)")
    check.add_argument("--db", metavar="PATH", help=db_help)


def _at_least_two(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 2:
        raise argparse.ArgumentTypeError(f"expected at least 2 runs, got {value}")
    return value
