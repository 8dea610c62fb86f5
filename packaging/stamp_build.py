"""Write app/build_info.json — version, git commit, Python and the main parts' versions — for a build.

Usage: <build venv>/bin/python packaging/stamp_build.py [--remove]
Run by packaging/build.sh before the wheel, sdist and bundle are made (they all carry the file) and
removed after, so a source checkout keeps asking git (see app/version.py). Only the inputs go in (no
build time), so the same tree and lock give the same stamp.
"""

from __future__ import annotations

import json
import platform
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.version import BUILD_INFO, PARTS, source_commit  # noqa: E402


def main() -> None:
    if sys.argv[1:] == ["--remove"]:
        BUILD_INFO.unlink(missing_ok=True)
        return
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = {"version": project["version"], "commit": source_commit(), "python": platform.python_version(),
            "parts": {name: metadata.version(name) for name in PARTS}}
    BUILD_INFO.write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    print(f"stamped {BUILD_INFO.relative_to(ROOT)}: {info['version']} commit {info['commit']}")


if __name__ == "__main__":
    main()
