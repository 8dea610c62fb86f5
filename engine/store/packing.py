"""MessagePack and Zstandard as the store writes them: event segments and workflow documents.

Packing goes through ormsgpack (Rust: 3-6x faster than msgpack's packer on event rows, and the trace
writer packs while holding the GIL the run needs) under `STRICT_OPTIONS`, where it either writes the
very bytes msgpack writes or refuses with TypeError. What it refuses (enums, named tuples, lone
surrogates, ints beyond 64 bits, dataclasses, datetimes, UUIDs) is packed by msgpack, which writes it,
or raises, as it always did: the stored format is one, and stores written before read the same.
Reading stays msgpack's (lone surrogates kept, int map keys allowed).
"""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
import ormsgpack
import zstandard

PACK_ERRORS = (TypeError, ValueError, OverflowError, RecursionError)
# keys of any msgpack type (int keys allowed); no conversion msgpack would not make: dataclasses, datetimes,
# enums and UUIDs refused, as ints beyond 64 bits and named tuples are (subclasses of str, int, list and
# dict are written as msgpack writes them)
STRICT_OPTIONS = (ormsgpack.OPT_NON_STR_KEYS | ormsgpack.OPT_PASSTHROUGH_DATACLASS
                  | ormsgpack.OPT_PASSTHROUGH_DATETIME | ormsgpack.OPT_PASSTHROUGH_ENUM | ormsgpack.OPT_PASSTHROUGH_UUID)
COMPRESS_LEVEL = 1  # ~15x smaller than the packed rows, at ~1 GB/s here


def pack(value: Any) -> bytes:
    """`msgpack.packb(value)`'s bytes (ormsgpack's when it takes the value); raises what msgpack raises."""
    try:
        return ormsgpack.packb(value, option=STRICT_OPTIONS)
    except TypeError:
        return msgpack.packb(value)  # type: ignore[no-any-return]


def compress(body: bytes) -> bytes:
    """Zstandard at `COMPRESS_LEVEL`; a compressor per call: one is not safe to share between threads."""
    return zstandard.ZstdCompressor(level=COMPRESS_LEVEL).compress(body)


def unpack(body: bytes) -> Any:
    """MessagePack `body` as written here (lone surrogates kept, int map keys allowed)."""
    return msgpack.unpackb(body, raw=False, strict_map_key=False, unicode_errors="surrogatepass")
