"""Docks that read the run's one clock (`RunPanel.run_time`), shown side by side on one projection."""

from __future__ import annotations

from typing import TypeVar

from pytestqt.qtbot import QtBot

from engine.projection import RunProjection
from widgets.run_panel import RunPanel

P = TypeVar("P", bound=RunPanel)


def shown(qtbot: QtBot, projection: RunProjection, panel: P, *, live: bool) -> P:
    """`panel` showing `projection`, live (its clock running) or standing still (a playback moment)."""
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.clock_running = live
    panel.set_projection(projection)
    return panel
