"""`triadic otel RUN... --endpoint URL | --file PATH`: stored runs as OpenTelemetry traces.

Checks first (exit 2, nothing sent): the endpoint is an http(s) URL, every run id resolves in the
database. Then the runs are exported in one request (`--endpoint`) or one file (`--file`); a receiver
that refuses, times out or answers an HTTP error, or a file that cannot be written, is exit 1 with
one line naming the endpoint or path and the cause.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.errors import EXIT_FAILED, EXIT_OK, CliError
from app.cli.otel_export import OtelTarget, export_runs
from app.cli.store_access import open_store


def execute(args: argparse.Namespace) -> int:
    from engine.export.otel import OtelExportError, traces_url

    target = OtelTarget(endpoint=args.endpoint, file=Path(args.file) if args.file else None,
                        include_content=args.include_content, timeout_s=args.timeout)
    if target.endpoint is not None:
        try:
            traces_url(target.endpoint)
        except OtelExportError as exc:
            raise CliError(f"--endpoint: {exc}") from None
    store, path = open_store(args.db, must_exist=True)
    try:
        runs = []
        for run_id in args.run_ids:
            try:
                run = store.get_run(run_id)
            except (LookupError, ValueError) as exc:
                raise CliError(f"run {run_id!r} in {path}: {exc}") from None
            if run is None:
                raise CliError(f"no run matches {run_id!r} in {path} (see 'triadic runs')")
            runs.append(run)
        try:
            count = export_runs(store, runs, target)
        except OtelExportError as exc:
            raise CliError(str(exc), code=EXIT_FAILED) from None
    finally:
        store.close()
    print(f"exported {count} spans of {len(runs)} run(s) to {target.where}")
    return EXIT_OK
