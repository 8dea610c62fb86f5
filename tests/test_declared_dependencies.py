"""Every third-party package the app imports is installed by `pip install triadic` itself.

A package that only arrives through a dev tool (pytest, ruff, import-linter, …) is there on a
developer's machine and missing on a user's: `triadic run` then dies with ImportError. This test
reads the installed metadata: each top-level module imported under app/, widgets/ and engine/ must
belong to a distribution that the project's runtime dependencies require, directly or through
their own requirements (optional extras of the project — `local`, `dev`, `bench` — do not count).
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN = {"app", "widgets", "engine", "resources"}
# Imported only when the optional local model is installed (`make local-model`), behind a guard.
OPTIONAL = {"llama_cpp"}


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _runtime_closure() -> set[str]:
    """Distributions installed for the project's runtime dependencies, following their requirements."""
    seen: set[str] = set()
    stack = [_name(r) for r in metadata.requires("triadic") or [] if "extra ==" not in r]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        stack += [_name(r) for r in requires if "extra ==" not in r or _extra_wanted(r)]
    return seen


def _extra_wanted(requirement: str) -> bool:
    # litellm is installed with its `mcp` extra (pyproject pins `litellm[mcp]`)
    return "extra == \"mcp\"" in requirement or "extra == 'mcp'" in requirement


def _imported_modules() -> dict[str, str]:
    """Top-level third-party modules imported by the shipped code, with one file that imports each."""
    found: dict[str, str] = {}
    for folder in ("app", "widgets", "engine"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in OWN and top not in OPTIONAL:
                        found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_every_imported_package_is_a_runtime_dependency() -> None:
    closure = _runtime_closure()
    owners = metadata.packages_distributions()
    missing = []
    for module, where in sorted(_imported_modules().items()):
        dists = {d.lower().replace("_", "-") for d in owners.get(module, [])}
        if not dists & closure:
            missing.append(f"{module} (imported in {where}; from {sorted(dists) or 'no installed distribution'})")
    assert not missing, "not installed by the runtime dependencies: " + "; ".join(missing)
