"""The Trace dock: a run's spans as a live, lazily read tree (`TracePanel`, over `TraceModel`)."""

from widgets.trace.trace_model import TraceModel
from widgets.trace.trace_panel import TracePanel

__all__ = ["TraceModel", "TracePanel"]
