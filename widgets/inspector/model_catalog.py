"""Model ids offered by the model picker, without importing litellm (its import costs ~2 s).

The in-process models come first, then every chat/completion model of litellm's bundled price
map, read directly from the installed package's JSON data file. Read once, on first use.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path

BUILTIN_MODELS = ("sim/default", "sim/gpt-4o-mini", "local/smollm2")
_MAP_FILE = "model_prices_and_context_window_backup.json"
_MODES = frozenset({"chat", "completion", "responses"})


def _litellm_dir() -> Path | None:
    spec = importlib.util.find_spec("litellm")
    locations = spec.submodule_search_locations if spec else None
    return Path(next(iter(locations))) if locations else None


@functools.cache
def provider_models() -> tuple[str, ...]:
    """Chat-capable model ids from litellm's bundled map (empty if litellm is not installed)."""
    folder = _litellm_dir()
    path = folder / _MAP_FILE if folder else None
    if path is None or not path.is_file():
        return ()
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    names = {name for name, info in table.items()
             if isinstance(info, dict) and info.get("mode") in _MODES and name != "sample_spec"}
    return tuple(sorted(names))


def known_models() -> list[str]:
    return [*BUILTIN_MODELS, *provider_models()]
