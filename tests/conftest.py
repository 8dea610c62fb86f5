"""Test-wide set-up: headless Qt, offline litellm prices, and a throwaway tokenizer cache per session."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# The tokenizer cache of this test session (engine.llm.token_cache): never the user's own cache dir.
os.environ.setdefault("TRIADIC_CACHE_DIR", tempfile.mkdtemp(prefix="triadic-test-cache-"))
