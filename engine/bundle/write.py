"""Writing a run bundle (`engine.bundle.format`): `export_run(store, run_id, path)`.

Invariants: only a finished run is exported, with the workflow versions of its sub-graphs; the file
appears complete or not at all (written to a temporary file beside it, then renamed); nothing that looks like a key is written (`secrets_check`);
every member's hash and size are in the manifest.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.bundle.format import (
    EVENTS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    RECORDING,
    SUB_GRAPHS,
    WORKFLOW,
    BundleError,
)
from engine.bundle.secrets_check import refuse_secrets
from engine.replay.recording import Recording
from engine.replay.rerun import finished_run
from engine.runtime.sub_graph_versions import SubGraphVersionMissing, recorded_documents, recorded_hashes

if TYPE_CHECKING:
    from engine import events as ev
    from engine.store import TraceStore


def recording_index(recording: Recording) -> dict[str, list[dict[str, str]]]:
    """The recorded calls as replay keys them (what an import checks against the events)."""
    return {"llm": [{"key": c.key, "node": c.node_id, "hash": c.hash} for c in recording.llm.values()],
            "tools": [{"key": t.key, "node": t.node_id, "tool": t.tool} for t in recording.tools.values()]}


def _event_line(event: ev.Event) -> str:
    try:
        return json.dumps(event.to_record(), ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise BundleError(f"event {event.seq} ({event.kind}) cannot be written as JSON: {exc}") from None


def export_run(store: TraceStore, run_id: str, path: Path) -> dict[str, Any]:
    """Write the run `run_id` (an id or unique prefix) to `path`; its manifest."""
    run, document = finished_run(store, run_id, doing="export", error=BundleError)
    events = list(store.iter_events(run.id))
    recording = Recording.from_events(run.id, events)
    members = {
        EVENTS: "".join(_event_line(e) + "\n" for e in events),
        WORKFLOW: json.dumps(document, ensure_ascii=False, indent=1),
        RECORDING: json.dumps(recording_index(recording), ensure_ascii=False),
        SUB_GRAPHS: json.dumps(_sub_graph_versions(store, recording.started), ensure_ascii=False),
    }
    for name, text in members.items():
        refuse_secrets(name, text)
    data = {name: text.encode("utf-8", "surrogatepass") for name, text in members.items()}
    manifest = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "run_id": run.id,
                "workflow_hash": run.workflow_hash, "started_at": run.started_at or time.time(),
                "events": len(events), "status": run.status,
                "files": {name: {"sha256": sha256_hex_bytes(body), "size": len(body)} for name, body in data.items()}}
    _write_atomically(path, {MANIFEST: json.dumps(manifest, indent=1).encode(), **data})
    return manifest


def _sub_graph_versions(store: TraceStore, started: ev.RunStarted | None) -> dict[str, dict[str, Any]]:
    """Version hash → document of each sub-graph version the run recorded."""
    hashes = recorded_hashes(started)
    try:
        documents = recorded_documents(store, hashes)
    except SubGraphVersionMissing as exc:
        raise BundleError(f"cannot export the run: {exc}") from None
    return {hashes[path]: document for path, document in documents.items()}


def sha256_hex_bytes(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def _write_atomically(path: Path, members: dict[str, bytes]) -> None:
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temp = tempfile.mkstemp(prefix=".bundle-", dir=folder)
    except OSError as exc:
        raise BundleError(f"{path}: cannot write there ({exc.strerror or exc})") from None
    os.close(handle)
    try:
        with zipfile.ZipFile(temp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name, body in members.items():
                archive.writestr(name, body)
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise BundleError(f"{path}: cannot write the bundle ({exc.strerror or exc})") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise

