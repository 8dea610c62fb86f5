"""Where bundled data lives: `resources/<folder>` found through the import system.

`importlib.resources.files("resources")` fails on the editable install's namespace path, so the
folders are found from the package's real search locations (first existing directory wins).
"""

from __future__ import annotations

import importlib.resources
import importlib.util
from pathlib import Path


def resource_dir(folder: str) -> Path | None:
    try:
        candidate = Path(str(importlib.resources.files(f"resources.{folder}")))
        if candidate.is_dir():
            return candidate
    except (ModuleNotFoundError, TypeError, NotADirectoryError):
        pass
    spec = importlib.util.find_spec("resources")
    for location in spec.submodule_search_locations or [] if spec else []:
        path = Path(location) / folder
        if path.is_dir():
            return path
    return None


def bundled_examples() -> list[Path]:
    """The bundled example workflows (`resources/examples/*.triadic.json`), sorted by name."""
    folder = resource_dir("examples")
    return sorted(folder.glob("*.triadic.json")) if folder else []


def theme_file(name: str) -> Path | None:
    folder = resource_dir("themes")
    path = folder / name if folder else None
    return path if path is not None and path.is_file() else None
