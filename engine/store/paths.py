"""Where the trace database lives by default.

Order: the `TRIADIC_DB` environment variable if set, else `triadic.db` in the platform's user data
directory for "Triadic" (platformdirs). The CLI's `--db` passes a path to `TraceStore` directly.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

DB_ENV_VAR = "TRIADIC_DB"
DB_FILE_NAME = "triadic.db"


def default_db_path() -> Path:
    override = os.environ.get(DB_ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("Triadic", appauthor=False)) / DB_FILE_NAME
