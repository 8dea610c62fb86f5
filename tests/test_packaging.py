"""What `make package` ships, checked cheaply (the full build and start-up check is `make package-check`).

The version stamp and `--version`, the desktop entry and MIME type agree, the icons exist at their
sizes, every resource file reaches the wheel (package-data) and the bundle (the spec collects
resources/ whole), the CLI's hidden self-test finds the resources, and a bundled app runs sandboxed
Python with the system interpreter (its own executable is the app).
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import re
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from fnmatch import fnmatch
from pathlib import Path
from types import ModuleType

import pytest

from app import version
from app.cli import cmd_self_test
from app.cli.main import main
from engine.checks import sandbox

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
MIME = "application/x-triadic-workflow+json"


def _build_script(name: str) -> ModuleType:
    """A script of packaging/ as a module (the folder is not a package; `packaging` is pip's)."""
    spec = importlib.util.spec_from_file_location(name, PACKAGING / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_from_git_in_a_checkout(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setattr(version, "BUILD_INFO", tmp_path / "absent.json")
    assert main(["--version"]) == 0
    head, parts = capsys.readouterr().out.splitlines()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert re.fullmatch(rf"triadic {re.escape(project['version'])} \(commit ([0-9a-f]{{12}}(\+dirty)?|unknown)\)",
                        head)
    assert parts.startswith("Python 3.11") and "PySide6-Essentials 6.11.3" in parts


def test_version_from_the_stamp_of_a_build(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    stamp = tmp_path / "build_info.json"
    stamp.write_text(json.dumps({"version": "1.2.3", "commit": "0123456789ab", "python": "3.11.9",
                                 "parts": {"litellm": "1.106.2"}}))
    monkeypatch.setattr(version, "BUILD_INFO", stamp)
    assert version.build_info()["packaged"] is True
    assert main(["-V"]) == 0
    assert capsys.readouterr().out == "triadic 1.2.3 (commit 0123456789ab)\nPython 3.11.9, litellm 1.106.2\n"


def test_self_test_is_hidden_from_help_and_finds_the_resources(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--help"])
    assert "self-test" not in capsys.readouterr().out
    assert cmd_self_test._resources().startswith(f"{len(list((ROOT / 'resources/examples').glob('*.triadic.json')))} ")


def test_desktop_entry_and_mime_type_agree() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(PACKAGING / "triadic.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Icon"] == "triadic"
    assert desktop["Exec"] == "triadic gui %f" and desktop["StartupWMClass"] == "triadic"
    assert desktop["MimeType"].split(";")[:1] == [MIME] and desktop["Categories"].endswith(";")
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    mime = ET.parse(PACKAGING / "triadic-mime.xml").getroot().find("m:mime-type", ns)
    assert mime is not None and mime.get("type") == MIME
    assert [g.get("pattern") for g in mime.findall("m:glob", ns)] == ["*.triadic.json"]
    install = (PACKAGING / "install.sh").read_text()
    assert "share/mime/packages/triadic.xml" in install and MIME in install


def test_icons_at_every_size() -> None:
    icons = ROOT / "resources" / "icons"
    assert ET.parse(icons / "triadic.svg").getroot().get("viewBox") == "0 0 256 256"
    from app.about import SIZES
    for size in SIZES:
        header = (icons / f"triadic-{size}.png").read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", header[16:24]) == (size, size)
    assert f"SIZES = {SIZES}" in (PACKAGING / "render_icons.py").read_text()
    assert f'SIZES="{" ".join(map(str, SIZES))}"' in (PACKAGING / "install.sh").read_text()


def test_every_resource_reaches_the_wheel_and_the_bundle() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["*"]
    files = [p for p in (ROOT / "resources").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert [p.name for p in files if not any(fnmatch(p.name, pat) for pat in patterns)] == []
    spec = (PACKAGING / "triadic.spec").read_text()
    assert '(ROOT / "resources").rglob("*")' in spec  # the bundle takes resources/ whole
    for needed in ("tiktoken_ext.openai_public", 'collect_data_files("litellm"', 'collect_submodules("app")',
                   'collect_submodules("engine")', 'collect_submodules("widgets")', "keyring.backends"):
        assert needed in spec, needed


def test_a_bundled_app_runs_sandboxed_python_with_the_system_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert sandbox.sandbox_python() != sys.executable
    assert sandbox.sandbox_python() in (*sandbox._SYSTEM_PYTHONS, "python3")


def test_the_build_never_strips_libraries_auditwheel_patched() -> None:
    """Stripped, a library auditwheel vendored (numpy's wheel: OpenBLAS) fails to load ("not page-aligned");
    nothing imports numpy at start-up (pyqtgraph's plots will), so the window and the examples would not
    notice: self-test computes with numpy and imports pyqtgraph. Vendored libraries lose only their symbol
    tables, with packaging/strip_vendored.py (below). The bundle's own numpy vendors none (next test)."""
    assert "STRIP = False" in (PACKAGING / "triadic.spec").read_text()
    build = (PACKAGING / "build.sh").read_text()
    assert "! -path '*.libs/*'" in build and "-path '*.libs/*'" in build and "strip_vendored.py" in build
    assert '("numpy", _numpy)' in Path(cmd_self_test.__file__).read_text()


def test_the_bundle_builds_numpy_without_blas_from_the_locks_source_and_tools() -> None:
    """Both package venvs replace the lock's numpy wheel (OpenBLAS, 28 MB) with one built from the lock's
    sdist without BLAS, by the lock's build tools (no build isolation: a tool missing from the lock would
    fail only in the middle of the build)."""
    makefile = (ROOT / "Makefile").read_text()
    assert "packaging/numpy_without_blas.sh $(PKG_VENV) $(PKG_LOCK)" in makefile
    assert "packaging/numpy_without_blas.sh $(PKG_VENV)-local $(PKG_LOCAL_LOCK)" in makefile
    script = (PACKAGING / "numpy_without_blas.sh").read_text()
    for option in ("--no-build-isolation", "--no-binary numpy", "--require-hashes", "--no-cache-dir",
                   "-Dblas=none", "-Dlapack=none"):
        assert option in script, option  # (pip's wheel cache would answer with a numpy built otherwise)
    for lock in ("package.lock", "package-local.lock"):
        pins = (ROOT / "requirements" / lock).read_text()
        for tool in ("numpy", "meson-python", "meson", "cython", "ninja"):
            assert re.search(rf"^{tool}==\S+ \\$", pins, re.MULTILINE), f"{tool} not pinned in {lock}"


def test_vendored_openblas_without_its_symbol_table_still_loads_and_computes(tmp_path: Path) -> None:
    """strip_vendored.py on numpy's own OpenBLAS (and the gfortran it links, beside it): smaller, the section
    headers readelf reads still consistent, and a fresh process dlopens it and computes a dot product."""
    import numpy

    libs = Path(numpy.__file__).parent.parent / "numpy.libs"
    copies = []
    for library in sorted(libs.glob("*.so*")):
        (tmp_path / library.name).write_bytes(library.read_bytes())
        copies.append(tmp_path / library.name)
    openblas = next(c for c in copies if c.name.startswith("libscipy_openblas"))
    strip_vendored = _build_script("strip_vendored")
    before, after = strip_vendored.strip_symbols(openblas)
    assert after == openblas.stat().st_size and before - after >= 500_000
    assert strip_vendored.strip_symbols(openblas) == (after, after)  # a second run finds nothing to drop
    sections = subprocess.run(["readelf", "-S", "-W", str(openblas)], capture_output=True, text=True, check=True)
    assert ".symtab" not in sections.stdout and ".dynsym" in sections.stdout and not sections.stderr
    probe = ("import ctypes, sys\nlib = ctypes.CDLL(sys.argv[1])\nddot = lib.scipy_cblas_ddot64_\n"
             "ddot.restype = ctypes.c_double\nx = (ctypes.c_double * 3)(1.0, 2.0, 3.0)\n"
             "print(ddot(ctypes.c_int64(3), x, ctypes.c_int64(1), x, ctypes.c_int64(1)))\n")
    result = subprocess.run([sys.executable, "-c", probe, str(openblas)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "14.0"
