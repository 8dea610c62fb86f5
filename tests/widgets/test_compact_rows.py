"""Rows that compress instead of widening the window: `ElidedLabel` (elided with the full text in its
tooltip, a steady preferred width), the playback bar (its position label does not follow each new text,
its controls go under the tool bar's » menu when it is narrow, "live" / "Back to live" share one width)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from widgets.elided_label import ElidedLabel
from widgets.playback import PlaybackBar

LONG = "a run status line much longer than the room it is given in a narrow dock, naming everything"


def test_an_elided_label_is_narrow_keeps_its_text_and_shows_it_in_its_tooltip_when_cut(qtbot: QtBot) -> None:
    label = ElidedLabel(LONG)
    qtbot.addWidget(label)
    label.setToolTip("what this label is")
    assert label.minimumSizeHint().width() < 80 < label.sizeHint().width()
    label.resize(label.sizeHint())
    label.show()
    QApplication.processEvents()
    assert not label.is_elided() and label.toolTip() == "what this label is"
    label.resize(60, label.height())
    QApplication.processEvents()
    assert label.is_elided() and label.text() == LONG and label.toolTip() == LONG


def test_an_elided_label_with_a_width_text_keeps_its_width_whatever_it_shows(qtbot: QtBot) -> None:
    label = ElidedLabel()
    qtbot.addWidget(label)
    label.set_width_text("000,000 of 000,000")
    widths = set()
    for text in ("", "1", "12,345 of 99,999", "3 of 3"):
        label.setText(text)
        widths.add((label.sizeHint().width(), label.minimumSizeHint().width()))
    assert len(widths) == 1


def test_the_playback_bar_keeps_its_sizes_while_the_position_moves_and_a_live_run_follows(qtbot: QtBot) -> None:
    bar = PlaybackBar()
    qtbot.addWidget(bar)
    bar.show()
    bar.show_run(600.0, 120_000, {}, {})
    sizes = set()
    for seq, seconds in ((1, 0.0), (9, 0.4), (55_555, 77.7), (120_000, 600.0)):
        for live_run, following in ((False, True), (True, True), (True, False)):
            bar.show_position(seq, 120_000, seconds, 600.0)
            bar.show_state(playing=False, live_run=live_run, following=following)
            sizes.add((bar.minimumSizeHint().width(), bar.position.sizeHint().width()))
    assert len(sizes) == 1
    assert bar.minimumSizeHint().width() <= 450 < bar.sizeHint().width()  # controls fold under », not widen


def test_the_playback_controls_fold_under_the_tool_bar_menu_and_keep_their_shortcuts(qtbot: QtBot) -> None:
    bar = PlaybackBar()
    qtbot.addWidget(bar)
    bar.resize(bar.minimumSizeHint().width(), 30)
    bar.show()
    QApplication.processEvents()
    assert bar.controls.width() < bar.controls.sizeHint().width()  # some controls are in the » menu
    assert all(action in bar.actions() for action in bar.actions_by_name.values())  # shortcuts on the bar
