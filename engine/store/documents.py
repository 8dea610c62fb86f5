"""Workflow versions as the store keeps them: the document packed and compressed.

A version's `doc` is `FORMAT_PACKED` (one byte) followed by Zstandard-compressed MessagePack of the
document: ~15x smaller than its JSON text and ~8x faster to make (a 1,000-node document: 0.6 ms
instead of 5 ms of JSON encoding, on the trace writer's thread at the start of a first run).
Stores written before hold the JSON text itself (a `str`), which still reads.

Invariants: `decode_document(encode_document(doc)) == doc` for the JSON-like values a document holds
(tuples come back as lists); a value MessagePack cannot hold raises ValueError saying so.
"""

from __future__ import annotations

import json
from typing import Any

import msgpack  # type: ignore[import-untyped]
import zstandard

from engine.store.packing import PACK_ERRORS, compress, pack, unpack

FORMAT_PACKED = b"\x02"


def encode_document(doc: dict[str, Any]) -> bytes:
    try:
        try:
            body = pack(doc)
        except UnicodeEncodeError:  # a lone surrogate: the slower packing that keeps it
            body = msgpack.packb(doc, unicode_errors="surrogatepass")
    except PACK_ERRORS as exc:
        raise ValueError(f"workflow document cannot be stored: {type(exc).__name__}: {exc}") from exc
    return FORMAT_PACKED + compress(body)


def decode_document(stored: str | bytes) -> Any:
    """The document of a stored version (JSON text from earlier stores, else packed). ValueError if damaged."""
    if isinstance(stored, str):
        return json.loads(stored)
    if stored[:1] != FORMAT_PACKED:
        raise ValueError(f"unknown workflow document format {stored[:1]!r}")
    try:
        body = zstandard.ZstdDecompressor().decompress(stored[1:])
        return unpack(body)
    except (zstandard.ZstdError, msgpack.UnpackException, TypeError) as exc:
        raise ValueError(f"damaged workflow document: {exc}") from exc
