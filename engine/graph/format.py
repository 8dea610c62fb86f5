"""The versioned ``*.triadic.json`` workflow file: text, files, and the content hash.

Public API: `FORMAT_VERSION`, `dumps_workflow` / `loads_workflow`, `save_workflow` / `load_workflow`,
`workflow_to_dict` / `workflow_from_dict`, `workflow_hash`, `WorkflowFileError`.

Invariants:
- output is deterministic (fixed key order, free-form parts key-sorted, indent 2, trailing newline)
  and save → load → save is byte-identical;
- loading raises only `WorkflowFileError`, whatever the input, and never writes to the file;
- saving is atomic (temp file in the same directory, fsync, `os.replace`): a failed save leaves the
  existing file byte-identical; nothing is written when the model cannot be serialized;
- secrets never go in a file: a parameter holding a key is refused on save and on load.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from engine.gc_pause import gc_paused
from engine.graph.convert import build_workflow, is_workflow_shaped, workflow_from_dict, workflow_to_dict
from engine.graph.jsontext import MAX_EDGES, MAX_FILE_BYTES, MAX_NODES, parse_json
from engine.graph.migrate import FORMAT_VERSION, v2_spelling
from engine.graph.model import Workflow
from engine.graph.problems import WorkflowFileError, file_error
from engine.graph.schema import structural_problems

__all__ = [
    "FORMAT_VERSION", "WorkflowFileError", "dumps_workflow", "load_workflow", "loads_workflow",
    "save_workflow", "workflow_from_dict", "workflow_hash", "workflow_to_dict",
]


def dumps_workflow(wf: Workflow) -> str:
    """The file text of `wf`; refuses (`WorkflowFileError`) what a load would refuse."""
    data = workflow_to_dict(wf)
    if not is_workflow_shaped(data):
        raise WorkflowFileError(repr(wf.name), structural_problems(data), action="save")
    if len(wf.nodes) > MAX_NODES or len(wf.edges) > MAX_EDGES:
        raise file_error(repr(wf.name), "too_many", f"At most {MAX_NODES:,} nodes and {MAX_EDGES:,} edges can be "
                         "saved.", action="save")
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def loads_workflow(text: str | bytes, *, source: str = "<text>") -> Workflow:
    """A `Workflow` from file text (bytes must be UTF-8)."""
    if isinstance(text, bytes | bytearray):
        text = _decode(bytes(text), source)
    if not isinstance(text, str):
        raise file_error(source, "not_text", f"Expected the text of a workflow file, not {type(text).__name__}.")
    data = parse_json(text, source)
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        raise file_error(source, "not_object", f"The top level must be a JSON object, not {kind}.")
    return build_workflow(data, source)


def _decode(raw: bytes, source: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise file_error(source, "not_text", f"This is not a workflow file: it is not UTF-8 text "
                         f"(invalid byte at offset {exc.start}).") from exc


def load_workflow(path: str | os.PathLike[str]) -> Workflow:
    """A `Workflow` read from `path`."""
    source = os.fspath(path)
    try:
        info = os.stat(source)
        if stat.S_ISDIR(info.st_mode):
            raise file_error(source, "not_file", "This is a folder, not a workflow file.")
        if not stat.S_ISREG(info.st_mode):
            raise file_error(source, "not_file", "This is not a regular file.")
        if info.st_size > MAX_FILE_BYTES:
            raise file_error(source, "too_large", f"The file is larger than {MAX_FILE_BYTES:,} bytes.")
        with open(source, "rb") as handle:  # as much as the file holds (not a buffer of the largest size)
            limit = MAX_FILE_BYTES + 1
            raw = handle.read(min(info.st_size + 1, limit))
            if len(raw) == info.st_size + 1 and len(raw) < limit:  # it grew since stat: read on, up to the limit
                raw += handle.read(limit - len(raw))
    except FileNotFoundError as exc:
        raise file_error(source, "not_found", "There is no such file.") from exc
    except ValueError as exc:  # a NUL character in the path
        raise file_error(source, "bad_path", f"This is not a valid file name: {exc}.") from exc
    except OSError as exc:
        raise file_error(source, "unreadable", f"The file cannot be read: {exc.strerror or exc}.") from exc
    if len(raw) > MAX_FILE_BYTES:
        raise file_error(source, "too_large", f"The file is larger than {MAX_FILE_BYTES:,} bytes.")
    with gc_paused():  # a large document is many small objects made at once
        return loads_workflow(_decode(raw, source), source=source)


def save_workflow(wf: Workflow, path: str | os.PathLike[str]) -> None:
    """Write `wf` to `path` atomically; on failure raise `WorkflowFileError` and leave `path` as it was."""
    source = os.fspath(path)
    if "\0" in source:
        raise file_error(source, "bad_path", "This is not a valid file name: it holds a NUL character.",
                         action="save")
    target = Path(os.path.realpath(source))
    try:
        payload = dumps_workflow(wf).encode("utf-8")
    except WorkflowFileError as exc:
        raise WorkflowFileError(str(target), exc.problems, action="save") from exc
    temp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            _copy_mode(target, fd)
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        os.replace(temp, target)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise file_error(str(target), "unwritable", f"The file cannot be written: {exc.strerror or exc}.",
                         action="save") from exc
    _fsync_dir(target.parent)


def _copy_mode(target: Path, fd: int) -> None:
    try:
        os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode))
    except FileNotFoundError:
        pass


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def workflow_hash(wf: Workflow) -> str:
    """sha256 hex of what the engine uses: settings, nodes (id, role, title, params) and edges, and the
    trace contracts a run is checked against (when there are any, so a file without contracts keeps
    the hash it had before contracts existed). The fields format version 3 renamed are hashed under
    their version-2 names (`migrate.v2_spelling`): the rename changed no workflow's hash.

    Canvas data (every ``ui`` part), the workflow's id, name and description and the order of nodes
    and edges do not count: the same graph moved on the canvas has the same hash.
    """
    return document_hash(workflow_to_dict(wf))


def document_hash(data: dict[str, Any]) -> str:
    """`workflow_hash` of the workflow whose file-format dict is `data` (left unchanged)."""
    settings, nodes = v2_spelling(data["settings"], [{k: v for k, v in node.items() if k != "ui"}
                                                     for node in data["nodes"]])
    canonical = {"settings": settings,
                 "nodes": sorted(nodes, key=lambda n: str(n["id"])),
                 "edges": sorted(data["edges"], key=lambda e: str(e["id"]))}
    if data.get("contracts"):
        canonical["contracts"] = data["contracts"]
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
