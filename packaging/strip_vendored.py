"""Drop the symbol table of libraries auditwheel vendored (`<pkg>.libs/`), keeping their layout (run by build.sh).

auditwheel's patchelf rewrote these libraries (new names, RPATH): it appended program headers and segments after
the static symbol table. `strip` lays the file out again from the sections and leaves those segments at offsets
that are no longer congruent to their addresses modulo the page size, and the loader refuses the library ("ELF
load command address/offset not page-aligned"). The static symbol table (`.symtab`, `.strtab`) is read by
debuggers only, never by the loader. This cuts the whole pages it spans out of the file and moves everything
after them down by that many pages — so every segment keeps its offset modulo the page size — and blanks the
two section headers. numpy's OpenBLAS: 25.4 -> 24.4 MB; `triadic self-test` multiplies matrices through it.

Usage: python packaging/strip_vendored.py LIBRARY...   (prints what it saved)
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

PAGE = 0x10000  # the largest page size of the platforms wheels are built for (x86-64 4 KiB, aarch64 up to 64 KiB)
SYMBOL_TABLES = (b".symtab", b".strtab")
ELF_HEADER = "<16sHHIQQQIHHHHHH"
PROGRAM_HEADER = "<IIQQQQQQ"
SECTION_HEADER = "<IIQQQQIIQQ"
SHT_NOBITS, SHF_ALLOC = 8, 0x2


def _sections(data: bytearray, shoff: int, shnum: int, shstrndx: int) -> list[tuple[bytes, list[int]]]:
    headers = [list(struct.unpack_from(SECTION_HEADER, data, shoff + i * 64)) for i in range(shnum)]
    names = headers[shstrndx][4]
    return [(bytes(data[names + h[0]:data.index(b"\0", names + h[0])]), h) for h in headers]


def strip_symbols(library: Path) -> tuple[int, int]:
    data = bytearray(library.read_bytes())
    ident, *_, phoff, shoff, _flags, _ehsize, _phsize, phnum, _shsize, shnum, shstrndx = \
        struct.unpack_from(ELF_HEADER, data)
    if ident[:6] != b"\x7fELF\x02\x01":
        raise SystemExit(f"strip_vendored: {library} is not a little-endian 64-bit ELF file")
    sections = _sections(data, shoff, shnum, shstrndx)
    tables = [i for i, (name, _h) in enumerate(sections) if name in SYMBOL_TABLES]
    before = len(data)
    if len(tables) != len(SYMBOL_TABLES):
        return before, before  # already stripped
    start = min(sections[i][1][4] for i in tables)
    end = start + (max(sum(sections[i][1][4:6]) for i in tables) - start) // PAGE * PAGE
    programs = [list(struct.unpack_from(PROGRAM_HEADER, data, phoff + i * 56)) for i in range(phnum)]
    inside = [i for i, (_name, h) in enumerate(sections) if i not in tables and h[1] != SHT_NOBITS
              and h[4] < end and h[4] + h[5] > start]
    if (end == start or any(p[2] < end and p[2] + p[5] > start for p in programs if p[5])
            or any(sections[i][1][2] & SHF_ALLOC or not start <= sections[i][1][4] <= end - sections[i][1][5]
                   for i in inside) or start <= shoff < end):
        return before, before  # less than a page, or something loaded lies in the pages: left as it is
    for i in inside:  # a small unloaded section between the two tables (the section names): moved to the end
        header = sections[i][1]
        data += data[header[4]:header[4] + header[5]]
        header[4] = len(data) - header[5]  # (moved down with the rest below)
    for index, program in enumerate(programs):
        program[2] -= (end - start) if program[2] >= end else 0
        struct.pack_into(PROGRAM_HEADER, data, phoff + index * 56, *program)
    for index, (_name, header) in enumerate(sections):
        if index in tables:
            header = [0] * 10  # SHT_NULL: no section
        elif header[4] >= end:
            header[4] -= end - start
        struct.pack_into(SECTION_HEADER, data, shoff + index * 64, *header)
    if shoff >= end:
        struct.pack_into("<Q", data, 0x28, shoff - (end - start))
    del data[start:end]
    library.write_bytes(data)
    return before, len(data)


def main(libraries: list[str]) -> None:
    for library in libraries:
        before, after = strip_symbols(Path(library))
        print(f"{Path(library).name}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
