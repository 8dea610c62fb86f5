"""Reading a bundle's members with every limit held (`engine.bundle.format`): the names, the sizes
read (never trusting the sizes a zip header claims), the compression ratio, the manifest's format,
version, sizes and hashes. Returns each member's text, the manifest parsed."""

from __future__ import annotations

import hashlib
import json
import zipfile
from typing import Any

from engine.bundle import format as fmt
from engine.bundle.format import BundleError

_CHUNK = 1024 * 1024


def read_members(archive: zipfile.ZipFile) -> dict[str, Any]:
    infos = archive.infolist()
    names = [info.filename for info in infos]
    for name in names:
        if name not in fmt.MEMBERS:
            kind = "a path" if ("/" in name or "\\" in name or ".." in name) else "a member"
            raise BundleError(f"the bundle holds {kind} {name!r}; a run bundle holds only {', '.join(fmt.MEMBERS)}")
    if len(set(names)) != len(names):
        raise BundleError("the bundle names a member twice")
    if fmt.MANIFEST not in names:
        raise BundleError(f"the bundle has no {fmt.MANIFEST}")
    manifest = _manifest(_bounded(archive, archive.getinfo(fmt.MANIFEST)))
    expected = fmt.MEMBERS_OF_VERSION[manifest["version"]]
    if missing := [m for m in expected if m not in names]:
        raise BundleError(f"the bundle has no {', '.join(missing)}")
    if extra := [m for m in names if m not in expected]:
        raise BundleError(f"the bundle holds {', '.join(extra)}, which a version-{manifest['version']} bundle "
                          "does not have")
    bodies = {info.filename: _bounded(archive, info) for info in infos if info.filename != fmt.MANIFEST}
    texts: dict[str, Any] = {fmt.MANIFEST: manifest}
    for name, body in bodies.items():
        declared = manifest["files"].get(name)
        if not isinstance(declared, dict):
            raise BundleError(f"{fmt.MANIFEST}: no size and hash for {name}")
        if declared.get("size") != len(body) or declared.get("sha256") != hashlib.sha256(body).hexdigest():
            raise BundleError(f"{name}: its size or content hash differs from the manifest's (the bundle was "
                              "altered or is damaged)")
        try:
            texts[name] = body.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as exc:
            raise BundleError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return texts


def _bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    limit = fmt.MAX_MEMBER_BYTES[info.filename]
    if info.file_size > limit:
        raise BundleError(f"{info.filename}: {info.file_size} bytes, more than it may have ({limit})")
    if info.compress_size and info.file_size / info.compress_size > fmt.MAX_RATIO:
        raise BundleError(f"{info.filename}: compressed more than {fmt.MAX_RATIO}:1 (a zip bomb?); refused")
    read, size = [], 0
    with archive.open(info) as member:
        while chunk := member.read(_CHUNK):
            size += len(chunk)
            if size > limit or (info.compress_size and size / max(info.compress_size, 1) > fmt.MAX_RATIO):
                raise BundleError(f"{info.filename}: inflates past what it may hold; refused")
            read.append(chunk)
    return b"".join(read)


def _manifest(body: bytes) -> dict[str, Any]:
    try:
        manifest = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise BundleError(f"{fmt.MANIFEST}: not valid JSON ({str(exc)[:120]})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != fmt.FORMAT_NAME:
        raise BundleError(f"{fmt.MANIFEST}: not a Triadic run bundle (format {fmt.FORMAT_NAME!r} expected)")
    version = manifest.get("version")
    if type(version) is not int or version not in fmt.MEMBERS_OF_VERSION:
        raise BundleError(f"{fmt.MANIFEST}: bundle format version {version!r}; this Triadic reads versions "
                          f"{' and '.join(map(str, fmt.MEMBERS_OF_VERSION))}")
    for name, kind in (("run_id", str), ("workflow_hash", str), ("files", dict), ("events", int),
                       ("started_at", (int, float))):
        if not isinstance(manifest.get(name), kind) or isinstance(manifest.get(name), bool):
            raise BundleError(f"{fmt.MANIFEST}: {name} is missing or of the wrong type")
    if not 0 < len(manifest["run_id"]) <= 200:
        raise BundleError(f"{fmt.MANIFEST}: run_id must be 1 to 200 characters")
    return manifest
