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


def gated_doc() -> dict[str, Any]:
    """The example with a human gate ("Sign off") between the critic's approved artifact and the result."""
    doc = example_doc()
    doc["nodes"].append({"id": "gate", "role": "human_gate", "title": "Sign off",
                         "params": {"prompt": "Publish this?"}, "ui": {"x": 840.0, "y": 120.0}})
    doc["edges"] = [e for e in doc["edges"] if e["id"] != "e5"] + [
        {"id": "e6", "source": "critic", "source_port": "approved", "target": "gate", "target_port": "subject"},
        {"id": "e7", "source": "gate", "source_port": "approved", "target": "result", "target_port": "value"},
    ]
    return doc
