"""Triadic engine: the pure-Python core (no Qt).

Workflow model and file format (`engine.graph`), the typed run event stream (`engine.events`),
the LLM gateway (`engine.llm`), the trace store (`engine.store`) and the runtime
(`engine.runtime`, `engine.roles`).

Invariant: importing `engine` is cheap — it imports no litellm, no SQLAlchemy and no Qt.
Sub-packages are imported explicitly by whoever needs them.
"""

from __future__ import annotations

__all__: list[str] = []
