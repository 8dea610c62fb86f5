"""Shared paths and helpers for the CLI tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "triad.triadic.json"


def example_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return doc


def write_doc(path: Path, doc: dict[str, Any]) -> Path:
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path
