"""Reading a run bundle and adding its run to a store: `read_bundle(path)`, `import_bundle(store, path)`.

Every check runs before the store is touched, and the store takes the run in one transaction
(`TraceStore.import_run`): a refused bundle — bad JSON, another format or version, hashes or sizes
that do not match the manifest, a member too big or too compressed, a name with a folder or "..",
events that are not one whole run, a recording that does not match the events, sub-graph versions
that are not exactly those the run ran or do not hash to their names, a key-like value, a run the
store already has — leaves the store as it was, with a `BundleError` saying what and where.

`as_new=True` imports the run under a new id (its events' `run_id` changed, nothing else): a store
holding the run already takes its copy.
"""

from __future__ import annotations

import json
import uuid
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import events as ev
from engine.bundle import format as fmt
from engine.bundle.format import BundleError
from engine.bundle.members import read_members
from engine.bundle.secrets_check import refuse_secrets
from engine.bundle.sub_graphs import sub_graph_versions
from engine.bundle.write import recording_index
from engine.event_record import record_from_row, record_row
from engine.replay.recording import Recording

if TYPE_CHECKING:
    from engine.store import TraceStore


@dataclass(frozen=True, slots=True)
class Bundle:
    manifest: dict[str, Any]
    events: list[ev.Event]
    document: dict[str, Any]
    sub_graphs: dict[str, dict[str, Any]] = field(default_factory=dict)  # version hash → document

    @property
    def run_id(self) -> str:
        return self.events[0].run_id


def read_bundle(path: Path) -> Bundle:
    """The checked contents of the bundle at `path`; `BundleError` when it is refused."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BundleError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if size > fmt.MAX_FILE_BYTES:
        raise BundleError(f"{path}: {size} bytes, more than a bundle may have ({fmt.MAX_FILE_BYTES})")
    try:
        with zipfile.ZipFile(path) as archive:
            texts = read_members(archive)
    except zipfile.BadZipFile as exc:
        raise BundleError(f"{path}: not a run bundle, or a damaged one (zip: {exc})") from None
    except OSError as exc:
        raise BundleError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    manifest = texts.pop(fmt.MANIFEST)
    for name, text in texts.items():
        refuse_secrets(name, text)
    events = _events(texts[fmt.EVENTS], manifest)
    document = _json(fmt.WORKFLOW, texts[fmt.WORKFLOW])
    if not isinstance(document, dict):
        raise BundleError(f"{fmt.WORKFLOW}: a workflow document is a JSON object")
    _check_recording(texts[fmt.RECORDING], events)
    sub_graphs = sub_graph_versions(_json(fmt.SUB_GRAPHS, texts.get(fmt.SUB_GRAPHS, "{}")), events[0])
    return Bundle(manifest, events, document, sub_graphs)


def import_bundle(store: TraceStore, path: Path, *, as_new: bool = False) -> Bundle:
    """Add the bundle's run to `store` (all or nothing); the bundle as imported (its new run id with
    `as_new`)."""
    from engine.store import IncompleteWrite, RunExistsError

    bundle = read_bundle(path)
    if as_new:
        bundle = replace(bundle, events=_renamed(bundle.events, uuid.uuid4().hex))
    try:
        store.import_run(bundle.events, bundle.document, started_at=float(bundle.manifest["started_at"]),
                         versions=bundle.sub_graphs)
    except RunExistsError:
        raise BundleError(f"the store already has run {bundle.run_id}; import it again with --as-new to add a "
                          "copy under a new id") from None
    except IncompleteWrite as exc:
        raise BundleError(f"{fmt.EVENTS}: the store cannot take these events ({exc}); nothing was imported") from None
    return bundle


def _json(member: str, text: str, line: int | None = None) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f"{member} line {line}" if line is not None else member
        raise BundleError(f"{where}: not valid JSON ({str(exc)[:120]})") from None


def _events(text: str, manifest: dict[str, Any]) -> list[ev.Event]:
    events: list[ev.Event] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > fmt.MAX_LINE_BYTES:
            raise BundleError(f"{fmt.EVENTS} line {number}: an event of {len(line)} characters, more than "
                              f"{fmt.MAX_LINE_BYTES}")
        if len(events) >= fmt.MAX_EVENTS:
            raise BundleError(f"{fmt.EVENTS}: more than {fmt.MAX_EVENTS} events")
        record = _json(fmt.EVENTS, line, number)
        if not isinstance(record, dict):
            raise BundleError(f"{fmt.EVENTS} line {number}: an event is a JSON object")
        try:
            event = ev.event_from_record(record)
        except (TypeError, ValueError) as exc:
            raise BundleError(f"{fmt.EVENTS} line {number}: not an event ({str(exc)[:120]})") from None
        _check_event(event, number, events, manifest)
        events.append(event)
    if not events or not isinstance(events[-1], ev.RunFinished):
        raise BundleError(f"{fmt.EVENTS}: the run does not end with run_finished (a bundle holds a finished run)")
    if len(events) != manifest.get("events"):
        raise BundleError(f"{fmt.EVENTS}: {len(events)} events, the manifest says {manifest.get('events')}")
    return events


def _check_event(event: ev.Event, number: int, before: list[ev.Event], manifest: dict[str, Any]) -> None:
    where = f"{fmt.EVENTS} line {number}"
    if not isinstance(event.seq, int) or not isinstance(event.ts, (int, float)) or not isinstance(event.run_id, str):
        raise BundleError(f"{where}: seq, ts and run_id must be a whole number, a number and text")
    if event.run_id != manifest["run_id"]:
        raise BundleError(f"{where}: run {event.run_id!r}, the manifest's is {manifest['run_id']!r}")
    if not before and not isinstance(event, ev.RunStarted):
        raise BundleError(f"{where}: a run begins with run_started, not {event.kind}")
    if before and event.seq <= before[-1].seq:
        raise BundleError(f"{where}: seq {event.seq} does not follow seq {before[-1].seq}")
    if isinstance(event, ev.RunStarted) and (before or event.workflow_hash != manifest["workflow_hash"]):
        raise BundleError(f"{where}: a second run_started, or another workflow hash than the manifest's")


def _check_recording(text: str, events: list[ev.Event]) -> None:
    index = _json(fmt.RECORDING, text)
    rebuilt = recording_index(Recording.from_events(events[0].run_id, events))
    if index != rebuilt:
        raise BundleError(f"{fmt.RECORDING}: does not match the recording the events hold (the bundle was altered)")


def _renamed(events: list[ev.Event], run_id: str) -> list[ev.Event]:
    out = []
    for event in events:
        row = list(record_row(event))
        row[1] = run_id
        out.append(record_from_row(type(event), row))
    return out
