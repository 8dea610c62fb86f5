"""The arguments of `triadic export` and `triadic import` (standard library only: `triadic --help`
stays fast)."""

from __future__ import annotations

from typing import Any


def add_bundle_parsers(sub: Any, db_help: str) -> None:
    export = sub.add_parser("export", help="write a past run to one bundle file (events, workflow, recording)",
                            description="Write a finished run — its events, the workflow version it ran and "
                                        "its recording — to one bundle file another Triadic can import, "
                                        "replay and fork. Never holds a key.")
    export.add_argument("run_id", metavar="RUN", help="run id or a unique prefix of it")
    export.add_argument("-o", "--output", required=True, metavar="FILE", help="the bundle to write (*.triadic-run)")
    export.add_argument("--db", metavar="PATH", help=db_help)

    imp = sub.add_parser("import", help="add a run from a bundle file to the store",
                         description="Add the run a bundle holds to the store, all or nothing; a malformed "
                                     "or altered bundle is refused and the store left as it was.")
    imp.add_argument("file", metavar="FILE", help="a run bundle (*.triadic-run)")
    imp.add_argument("--as-new", action="store_true",
                     help="import under a new run id (when the store already has the run)")
    imp.add_argument("--db", metavar="PATH", help=db_help)
