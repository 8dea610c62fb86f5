"""The one place litellm is imported: lazily, offline-configured, with our custom providers registered.

`load_litellm()` sets `LITELLM_LOCAL_MODEL_COST_MAP=True` (no price-map fetch from the network)
before the import, silences litellm's debug banner, and registers the `sim` and `local` custom
providers in `litellm.custom_provider_map`.

Invariant: importing this module is cheap; litellm is imported on the first `load_litellm()` call
only (1.6–2.8 s), never at app start-up.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_lock = threading.Lock()
_litellm: Any = None


def load_litellm() -> Any:
    """The configured litellm module (imported on first call)."""
    global _litellm
    if _litellm is not None:
        return _litellm
    with _lock:
        if _litellm is None:
            os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
            import litellm

            from engine.llm.local import make_local_provider
            from engine.llm.sim.provider import SimProvider

            litellm.suppress_debug_info = True
            litellm.telemetry = False
            registered = {item["provider"] for item in litellm.custom_provider_map}
            for name, handler in (("sim", SimProvider()), ("local", make_local_provider())):
                if name not in registered:
                    litellm.custom_provider_map.append({"provider": name, "custom_handler": handler})
            setup = getattr(litellm.utils, "custom_llm_setup", None)
            if callable(setup):
                setup()
            _litellm = litellm
    return _litellm


def litellm_loaded() -> bool:
    return _litellm is not None


__all__ = ["litellm_loaded", "load_litellm"]
