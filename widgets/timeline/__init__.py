"""The Timeline dock: a Gantt of a run's spans, a lane per node (`TimelinePanel`)."""

from widgets.timeline.timeline_panel import TimelinePanel

__all__ = ["TimelinePanel"]
