"""The playback bar under the canvas: a time track over a run with its marks, and the controls to move on it."""

from widgets.playback.bar import SPEED_CHOICES, PlaybackBar
from widgets.playback.track import MARK_COLORS, ScrubTrack

__all__ = ["MARK_COLORS", "SPEED_CHOICES", "PlaybackBar", "ScrubTrack"]
