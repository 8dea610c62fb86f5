"""Rebuild the bundle's ICU data library without the display-name tables Qt never reads (run by build.sh).

Qt links ICU for collation (QCollator), locale-aware case mapping and the text codecs beyond UTF-8/Latin-1;
PySide6 ships ICU's whole data package in `libicudata.so.<v>` (31 MB). Half of it is names for display —
languages, regions, currencies, units, time zones — plus transliterators and spelled-out numbers, read only
by ICU's formatting APIs, which Qt does not call (its own CLDR tables name locales); and the break-iterator
rules and dictionaries and Unicode character names (3.7 MB): Qt calls no `ubrk_*` and no `u_charName` (the
ICU functions Qt 6.11 imports are case mapping, `ucal_*` for time-zone ids, `ucnv_*` and `ucol_*`). This takes the data
package out of the library (the `icudt<v>_dat` symbol), removes those trees with ICU's `icupkg`
(Debian: icu-devtools) and links a library with the same name, soname and symbol (`gcc`). Collation,
normalization, locale data and converters stay, except the 66 EBCDIC code pages (IBM mainframe encodings,
1.1 MB: no desktop file, clipboard or web page is in one, and the WHATWG encoding list HTML decoding follows has
none); `triadic self-test` checks collation, Turkish case mapping and that the CJK and Cyrillic converters open
in the bundle. The library is linked stripped.

Usage: python packaging/trim_icu.py BUNDLE_DIR   (prints what it saved)
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

DROPPED = ("unit/", "curr/", "lang/", "region/", "zone/", "translit/", "rbnf/", "brkitr/", "unames.icu")
ASSEMBLY = """    .section .rodata
    .globl {symbol}
    .type {symbol}, @object
    .balign 16
{symbol}:
    .incbin "{data}"
    .size {symbol}, . - {symbol}
    .section .note.GNU-stack,"",@progbits
"""


IBM_PLATFORM = 0  # UConverterPlatform UCNV_IBM
EBCDIC_SUBSTITUTES = (b"\x3f", b"\xfe\xfe")  # EBCDIC's SUB character, and the DBCS one of its double-byte pages


def _is_ebcdic(converter: bytes) -> bool:
    """Whether a .cnv table is an IBM EBCDIC code page, from its UConverterStaticData (after the data header):
    IBM's platform and EBCDIC's substitution byte(s) — ASCII-based pages substitute 0x1A or 0x7F."""
    static = converter[struct.unpack_from("<H", converter)[0]:]
    platform = static[68]
    substitute = static[72:72 + static[76]]
    return platform == IBM_PLATFORM and substitute in EBCDIC_SUBSTITUTES


def _ebcdic_converters(package: Path, items: list[str], work: Path) -> list[str]:
    converters = [item for item in items if item.endswith(".cnv")]
    (work / "converters.txt").write_text("\n".join(converters) + "\n")
    (work / "cnv").mkdir()
    _run("icupkg", "-x", str(work / "converters.txt"), "-d", str(work / "cnv"), str(package))
    return [item for item in converters if _is_ebcdic((work / "cnv" / item).read_bytes())]


def _run(*cmd: str) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _data_symbol(library: Path) -> tuple[str, int, int]:
    """(name, virtual address, size) of the ICU data symbol the library exports."""
    for line in _run("nm", "-D", "-S", str(library)).splitlines():
        parts = line.split()
        if len(parts) == 4 and re.fullmatch(r"icudt\d+_dat", parts[3]):
            return parts[3], int(parts[0], 16), int(parts[1], 16)
    raise SystemExit(f"trim_icu: no icudt*_dat symbol in {library}")


def _file_offset(library: Path, address: int) -> int:
    """The file offset of a virtual address, from the section that holds it."""
    for line in _run("readelf", "-S", "-W", str(library)).splitlines():
        fields = line.split("]", 1)[-1].split()
        if len(fields) >= 5 and fields[0].startswith("."):
            start, offset, size = int(fields[2], 16), int(fields[3], 16), int(fields[4], 16)
            if start <= address < start + size:
                return offset + address - start
    raise SystemExit(f"trim_icu: address {address:#x} is in no section of {library}")


def trim(library: Path) -> tuple[int, int]:
    symbol, address, size = _data_symbol(library)
    package = symbol.removesuffix("_dat") + "l"  # icudt73l: the little-endian package name icupkg expects
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        whole, trimmed = work / f"{package}.dat", work / "out" / f"{package}.dat"
        trimmed.parent.mkdir()
        with library.open("rb") as f:
            f.seek(_file_offset(library, address))
            whole.write_bytes(f.read(size))
        items = _run("icupkg", "-l", str(whole)).split()
        dropped = [item for item in items if item.startswith(DROPPED)] + _ebcdic_converters(whole, items, work)
        (work / "dropped.txt").write_text("\n".join(dropped) + "\n")
        _run("icupkg", "-r", str(work / "dropped.txt"), str(whole), str(trimmed))
        (work / "data.S").write_text(ASSEMBLY.format(symbol=symbol, data=trimmed))
        rebuilt = work / library.name
        _run("gcc", "-shared", "-nostdlib", "-s", f"-Wl,-soname,{library.name}", "-Wl,--build-id=none",
             "-o", str(rebuilt), str(work / "data.S"))
        before = library.stat().st_size
        shutil.copyfile(rebuilt, library)
    return before, library.stat().st_size


def main(bundle: str) -> None:
    missing = [tool for tool in ("icupkg", "gcc", "nm", "readelf") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"trim_icu: {', '.join(missing)} not found (Debian: apt-get install icu-devtools gcc "
                         "binutils)")
    libraries = sorted({p.resolve() for p in Path(bundle).rglob("libicudata.so.*") if not p.is_symlink()})
    if not libraries:
        raise SystemExit(f"trim_icu: no libicudata.so.* under {bundle}")
    for library in libraries:
        before, after = trim(library)
        print(f"{library.name}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")


if __name__ == "__main__":
    main(sys.argv[1])
