"""The "Fork from here…" dialog (`ForkDialog`)."""

from widgets.fork.fork_dialog import ForkDialog

__all__ = ["ForkDialog"]
