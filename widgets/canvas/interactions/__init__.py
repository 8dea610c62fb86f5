"""Mouse gestures of the canvas, one small object per gesture (the idea of Orange canvas's
document/interactions.py): the view picks one on mouse press and forwards the rest of the
gesture to it until it ends. Items have no mouse handlers.
"""

from __future__ import annotations

from widgets.canvas.interactions.base import Interaction
from widgets.canvas.interactions.connect import ConnectInteraction
from widgets.canvas.interactions.move import MoveInteraction
from widgets.canvas.interactions.pan import PanInteraction
from widgets.canvas.interactions.resize import ResizeCommentInteraction
from widgets.canvas.interactions.rubber_band import RubberBandInteraction

__all__ = [
    "ConnectInteraction",
    "Interaction",
    "MoveInteraction",
    "PanInteraction",
    "ResizeCommentInteraction",
    "RubberBandInteraction",
]
