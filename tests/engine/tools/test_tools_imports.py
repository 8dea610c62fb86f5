"""Importing the engine building blocks stays cheap: no jsonschema, pydantic or mcp until used."""

from __future__ import annotations

import subprocess
import sys


def test_packages_import_without_heavy_dependencies() -> None:
    code = ("import sys, engine.checks, engine.tools, engine.memory; "
            "print(sorted(m for m in ('jsonschema', 'pydantic', 'mcp', 'litellm') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
