"""Helpers of the bundle tests: rewrite a bundle's members (a hostile or damaged bundle) and say what
a store holds (to prove a refused import changed nothing)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

from engine.store import TraceStore


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rewrite(path: Path, changed: dict[str, bytes], *, fix_manifest: bool = True,
            manifest: dict[str, Any] | None = None, drop: tuple[str, ...] = ()) -> Path:
    """The bundle with some members replaced (and those named in `drop` left out); the manifest's sizes
    and hashes follow them unless `fix_manifest` is false (a tampered bundle)."""
    body = {name: data for name, data in {**members(path), **changed}.items() if name not in drop}
    meta = manifest if manifest is not None else json.loads(body["manifest.json"])
    if fix_manifest:
        for name in changed:
            if name in meta.get("files", {}):
                meta["files"][name] = {"sha256": hashlib.sha256(body[name]).hexdigest(), "size": len(body[name])}
    body["manifest.json"] = json.dumps(meta).encode()
    out = path.with_name("changed-" + path.name)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in body.items():
            archive.writestr(name, data)
    return out


def store_state(store: TraceStore) -> tuple[Any, ...]:
    """Everything a refused import could have touched: the runs, their events, the workflow versions."""
    with store._read() as conn:
        tables = ("runs", "event_segments", "workflow_versions", "workflows", "verdicts", "memory_entries")
        return tuple(tuple(conn.exec_driver_sql(f"SELECT * FROM {t} ORDER BY 1").all()) for t in tables)
