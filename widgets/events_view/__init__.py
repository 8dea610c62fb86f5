"""The Events dock: a run's raw event stream as a live, filterable virtual table (`EventsPanel`)."""

from widgets.events_view.events_model import EventsModel
from widgets.events_view.events_panel import EventsPanel

__all__ = ["EventsModel", "EventsPanel"]
