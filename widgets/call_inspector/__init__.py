"""The Call inspector dock: one model or tool call in full, live (`CallInspectorPanel`)."""

from widgets.call_inspector.call_inspector_panel import CallInspectorPanel

__all__ = ["CallInspectorPanel"]
