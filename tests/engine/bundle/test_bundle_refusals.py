"""A malformed or hostile bundle is refused with a message saying what and where, and the store it
was imported into is left exactly as it was: bad JSON, another format or version, wrong hashes,
altered events or recording, huge members and zip bombs (bounded reads), path tricks, a run the store
already has (naming --as-new), a key inside."""

from __future__ import annotations

import json
import struct
import zipfile
from pathlib import Path

import pytest

from engine.bundle import BundleError, export_run, import_bundle
from engine.bundle import format as fmt
from engine.store import TraceStore
from tests.engine.bundle.bundle_helpers import members, rewrite, store_state


@pytest.fixture
def bundle(source: tuple[TraceStore, str], tmp_path: Path) -> Path:
    store, run_id = source
    path = tmp_path / "run.triadic-run"
    export_run(store, run_id, path)
    return path


def _refused(target: TraceStore, path: Path, match: str, **kw: bool) -> None:
    before = store_state(target)
    with pytest.raises(BundleError, match=match):
        import_bundle(target, path, **kw)
    assert store_state(target) == before


def _events(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in members(path)["events.jsonl"].decode().splitlines()]


def _events_bytes(records: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def test_not_a_zip_nor_json(target: TraceStore, tmp_path: Path) -> None:
    junk = tmp_path / "junk.triadic-run"
    junk.write_text("{ not a bundle")
    _refused(target, junk, "not a run bundle, or a damaged one")
    _refused(target, tmp_path / "missing.triadic-run", "cannot read it")


def test_bad_json_in_a_member_names_the_line(target: TraceStore, bundle: Path) -> None:
    text = members(bundle)["events.jsonl"].decode().splitlines()
    text[4] = text[4][:-3]
    _refused(target, rewrite(bundle, {"events.jsonl": ("\n".join(text) + "\n").encode()}),
             r"events.jsonl line 5: not valid JSON")
    _refused(target, rewrite(bundle, {"manifest.json": b"{"}, manifest={}), "manifest.json: not")


def test_another_version_or_format(target: TraceStore, bundle: Path) -> None:
    manifest = json.loads(members(bundle)["manifest.json"])
    _refused(target, rewrite(bundle, {}, manifest={**manifest, "version": 99}), "format version 99")
    _refused(target, rewrite(bundle, {}, manifest={**manifest, "format": "zip"}), "not a Triadic run bundle")
    _refused(target, rewrite(bundle, {}, manifest={**manifest, "started_at": "yesterday"}), "started_at is missing")
    _refused(target, rewrite(bundle, {}, manifest={**manifest, "run_id": "x" * 300}), "run_id must be")


def test_wrong_hashes_and_altered_content(target: TraceStore, bundle: Path) -> None:
    records = _events(bundle)
    records[10]["ts"] = 123.0
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(records)}, fix_manifest=False),
             "content hash differs")
    call = next(r for r in records if r["kind"] == "llm_started")
    call["request"]["messages"][0]["content"] = "something else"  # type: ignore[index]
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(records)}), "recording.json: does not match")


def test_events_that_are_not_one_whole_run(target: TraceStore, bundle: Path) -> None:
    records = _events(bundle)
    swapped = [records[0], records[2], records[1], *records[3:]]
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(swapped)}), "seq 2 does not follow seq 3")
    other = [dict(records[0], run_id="someone-else"), *records[1:]]
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(other)}), "line 1: run 'someone-else'")
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(records[:-1])}), "does not end with run_finished")
    unknown = [records[0], dict(records[1], kind="rm -rf"), *records[2:]]
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(unknown)}), "line 2: not an event")


def test_path_tricks_and_extra_members(target: TraceStore, bundle: Path, tmp_path: Path) -> None:
    for name in ("../../etc/evil", "/abs/path", "sub/manifest.json", "extra.txt"):
        path = tmp_path / "tricky.triadic-run"
        with zipfile.ZipFile(path, "w") as archive:
            for member, data in members(bundle).items():
                archive.writestr(member, data)
            archive.writestr(name, b"x")
        _refused(target, path, "a run bundle holds only")
        assert not (tmp_path.parent / "etc").exists()


def test_huge_members_and_zip_bombs_are_refused_with_bounded_reads(target: TraceStore, bundle: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = b"\0" * (8 * 1024 * 1024)  # compresses about 1000:1
    _refused(target, rewrite(bundle, {"workflow.json": bomb}), "zip bomb")
    monkeypatch.setitem(fmt.MAX_MEMBER_BYTES, "events.jsonl", 1000)
    _refused(target, bundle, "events.jsonl: .* more than it may have")
    monkeypatch.setattr(fmt, "MAX_LINE_BYTES", 200)
    monkeypatch.setitem(fmt.MAX_MEMBER_BYTES, "events.jsonl", 10**9)
    _refused(target, bundle, "events.jsonl line 1: an event of .* characters")


def test_a_lying_header_is_not_trusted(target: TraceStore, bundle: Path, tmp_path: Path) -> None:
    """A member whose headers claim fewer bytes than it inflates to is refused as damaged."""
    data = bytearray(bundle.read_bytes())
    with zipfile.ZipFile(bundle) as archive:
        info = archive.getinfo("events.jsonl")
    name = b"events.jsonl"
    central = _central_entry(data, name)
    data[central + 24:central + 28] = struct.pack("<I", 10)
    data[info.header_offset + 22:info.header_offset + 26] = struct.pack("<I", 10)
    lying = tmp_path / "lying.triadic-run"
    lying.write_bytes(bytes(data))
    _refused(target, lying, "damaged")


def _central_entry(data: bytearray, name: bytes) -> int:
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack("<H", data[at + 28:at + 30])[0]
        if data[at + 46:at + 46 + length] == name:
            return at
        at = data.find(b"PK\x01\x02", at + 4)
    raise AssertionError("no central directory entry")


def test_a_run_the_store_has_is_refused_naming_as_new(target: TraceStore, bundle: Path) -> None:
    first = import_bundle(target, bundle)
    _refused(target, bundle, "already has run .* --as-new")
    copy = import_bundle(target, bundle, as_new=True)
    assert copy.run_id != first.run_id and target.get_run(copy.run_id) is not None


def test_a_key_inside_is_refused(target: TraceStore, bundle: Path) -> None:
    records = _events(bundle)
    records[0]["inputs"] = {"goal": "sk-" + "A" * 40}
    _refused(target, rewrite(bundle, {"events.jsonl": _events_bytes(records)}), "looks like an API key")
