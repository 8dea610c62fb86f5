"""`PlaybackBar`: the strip under the canvas that moves through a run — the track (`ScrubTrack`), play /
pause, the speed, steps to the previous / next event, span and verdict, start / end, the moment shown
(time and seq) and, for a live run, "live" or a "Back to live" button. Previous / play / next always show;
the other controls are a tool bar whose last ones fold under its » menu when the window is narrow, and the
position label has a steady width (the run's longest position text, elided when short of room), so the bar
never widens the window.

Every control is a `QAction` with a shortcut (window-wide while the bar shows): Alt+←/→ event,
Alt+Shift+←/→ span, Alt+PgUp/PgDown verdict, Alt+Home / Alt+End, Ctrl+Space play / pause; "By event"
(Alt+Shift+E) switches the track's scale from time to the events' numbers and back (`scale_changed`).
It only emits intents (`seek_requested` in seconds, `seek_event_requested` by event number,
`step_requested`, `play_requested`, `speed_changed`, `start_requested`, `end_requested`) and shows what
it is told (`show_run`, `show_position`, `show_state`, `set_by_event`): it keeps both scales of the run
shown, so switching redraws the track at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QStackedLayout,
    QStyle,
    QToolBar,
    QToolButton,
    QWidget,
)

from widgets.elided_label import ElidedLabel
from widgets.playback.track import ScrubTrack

SPEED_CHOICES: list[tuple[str, float]] = [("1×", 1.0), ("2×", 2.0), ("5×", 5.0), ("10×", 10.0), ("100×", 100.0),
                                          ("max", 0.0)]
_Icon = QStyle.StandardPixmap
POSITION_MIN_CHARS = 16  # the narrowest the position gets: "0:00.4 / 0:12.3", the rest elided
# name, text, icon (None: the text), tip, shortcut, (step kind, direction) or None
_STEPS = [
    ("start", "Start", _Icon.SP_MediaSkipBackward, "To the run's start", "Alt+Home", None),
    ("previous_verdict", "◂◆", None, "To the previous verdict", "Alt+PgUp", ("verdict", -1)),
    ("previous_span", "◂▮", None, "To the previous span that started", "Alt+Shift+Left", ("span", -1)),
    ("previous_event", "Previous event", _Icon.SP_MediaSeekBackward, "To the previous event", "Alt+Left",
     ("event", -1)),
    ("next_event", "Next event", _Icon.SP_MediaSeekForward, "To the next event", "Alt+Right", ("event", 1)),
    ("next_span", "▮▸", None, "To the next span that starts", "Alt+Shift+Right", ("span", 1)),
    ("next_verdict", "◆▸", None, "To the next verdict", "Alt+PgDown", ("verdict", 1)),
    ("end", "End", _Icon.SP_MediaSkipForward, "To the end: the whole run (a live run: follow it)", "Alt+End", None),
]


class PlaybackBar(QWidget):
    seek_requested = Signal(float)  # seconds from the run's start
    seek_event_requested = Signal(int)  # the event (seq) to show: the track scaled by event
    scale_changed = Signal(bool)  # True: the track is scaled by event
    step_requested = Signal(str, int)  # "event" | "span" | "verdict" | …, -1 / +1
    play_requested = Signal()  # toggle play / pause
    speed_changed = Signal(float)  # × the recorded pace; 0: as fast as possible
    start_requested = Signal()
    end_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("playback_bar")
        self.track = ScrubTrack(self)
        self.track.seek_requested.connect(self._on_track_seek)
        self.by_event = False
        self._run: tuple[float, int, Mapping[str, Sequence[float]], Mapping[str, Sequence[int]]] = (0.0, 0, {}, {})
        self._at: tuple[int, float] = (0, 0.0)  # the seq and the time shown
        self.actions_by_name: dict[str, QAction] = {}
        self.play_action = self._action("play", "Play", "Play the run at the chosen speed (Ctrl+Space)", "Ctrl+Space")
        self.play_action.triggered.connect(self.play_requested)
        self.speed = QComboBox(self)
        self.speed.setObjectName("playback_speed")
        self.speed.setToolTip("Playback speed, against the recorded timestamps (max: as fast as the window shows)")
        for text, value in SPEED_CHOICES:
            self.speed.addItem(text, value)
        self.speed.currentIndexChanged.connect(lambda i: self.speed_changed.emit(float(self.speed.itemData(i))))
        # its width is the run's longest position text; when the bar is narrow it still shows about the times
        self.position = ElidedLabel(parent=self, min_chars=POSITION_MIN_CHARS)
        self.position.setObjectName("playback_position")
        self.position.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.position.setAutoFillBackground(True)  # opaque: a new position repaints the label, not the bar under it
        self.live_label = QLabel("● live", self)
        self.live_label.setObjectName("playback_live")
        self.live_label.setStyleSheet("color: #e74c3c; font-weight: bold")
        self.live_button = QToolButton(self)
        self.live_button.setText("Back to live")
        self.live_button.setToolTip("Show the run as it is now and follow it again")
        self.live_button.clicked.connect(self.end_requested)
        # previous / play / next always show; the other controls are a tool bar: when the window is narrow its
        # last ones go under its » menu instead of widening the window (each keeps its shortcut)
        transport: list[QAction] = []
        self.controls = QToolBar(self)
        self.controls.setObjectName("playback_controls")
        self.controls.setIconSize(QSize(16, 16))
        for name, text, icon, tip, keys, step in _STEPS:
            action = self._action(name, text, f"{tip} ({keys})", keys)
            if icon is not None:
                action.setIcon(self.style().standardIcon(icon))
            if step is not None:
                action.triggered.connect(lambda _=False, s=step: self.step_requested.emit(*s))
            elif name == "start":
                action.triggered.connect(self.start_requested)
            else:
                action.triggered.connect(self.end_requested)
            if name == "next_event":
                transport.append(self.play_action)
            if name.endswith("_event"):
                transport.append(action)
            else:
                self.controls.addAction(action)
        self.controls.addWidget(self.speed)
        self.by_event_action = self._action(
            "by_event", "By event", "Scale the track by event, each the same width, instead of by time: events "
            "that came close together spread out to be dragged through (Alt+Shift+E)", "Alt+Shift+E")
        self.by_event_action.setCheckable(True)
        self.by_event_action.toggled.connect(self._on_scale_toggled)
        self.controls.addAction(self.by_event_action)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        for action in transport:
            layout.addWidget(self._button(action))
        layout.addWidget(self.controls)
        layout.addWidget(self.track, 1)
        layout.addWidget(self.position)
        self._live_slot = QStackedLayout()  # "live", "Back to live" or nothing, in one steady width
        for widget in (QWidget(self), self.live_label, self.live_button):
            self._live_slot.addWidget(widget)
        layout.addLayout(self._live_slot)
        self.show_state(playing=False, live_run=False, following=True)

    def _action(self, name: str, text: str, tip: str, keys: str) -> QAction:
        action = QAction(text, self)
        action.setObjectName(f"playback_{name}")
        action.setToolTip(tip)
        action.setShortcut(QKeySequence(keys))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.addAction(action)
        self.actions_by_name[name] = action
        return action

    def _button(self, action: QAction) -> QToolButton:
        button = QToolButton(self)
        button.setDefaultAction(action)
        button.setAutoRaise(True)
        return button

    # -- the track's scale -------------------------------------------------------------------------
    def set_by_event(self, on: bool) -> None:
        """Scale the track by event (True) or by time; `scale_changed` follows a change."""
        self.by_event_action.setChecked(on)

    def _on_scale_toggled(self, on: bool) -> None:
        if on != self.by_event:
            self.by_event = on
            self._draw_run()
            self.scale_changed.emit(on)

    def _on_track_seek(self, value: float) -> None:
        if self.by_event:
            self.seek_event_requested.emit(round(value))
        else:
            self.seek_requested.emit(value)

    def _draw_run(self) -> None:
        end_seconds, end_seq, times, seqs = self._run
        if self.by_event:
            self.track.set_run(float(end_seq), seqs)
        else:
            self.track.set_run(end_seconds, times)
        self.track.set_position(self._at[0] if self.by_event else self._at[1])

    # -- shown -----------------------------------------------------------------------------------
    def show_run(self, end_seconds: float, end_seq: int, times: Mapping[str, Sequence[float]],
                 seqs: Mapping[str, Sequence[int]]) -> None:
        """The run's extent on both scales and its marks on each (by kind: times, and event numbers)."""
        self._run = (end_seconds, end_seq, times, seqs)
        self.position.set_width_text(position_text(end_seconds, end_seq, end_seconds, end_seq))
        self._draw_run()

    def show_position(self, seq: int, end_seq: int, seconds: float, end_seconds: float) -> None:
        self._at = (seq, seconds)
        self.track.set_position(seq if self.by_event else seconds)
        self.position.setText(position_text(seconds, seq, end_seconds, end_seq))

    def show_state(self, *, playing: bool, live_run: bool, following: bool) -> None:
        self.play_action.setText("Pause" if playing else "Play")
        self.play_action.setIcon(self.style().standardIcon(
            QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay))
        self.play_action.setToolTip(("Pause" if playing else "Play the run at the chosen speed") + " (Ctrl+Space)")
        shown = (self.live_label if following else self.live_button) if live_run else None
        self._live_slot.setCurrentIndex(0 if shown is None else self._live_slot.indexOf(shown))

    def set_speed(self, speed: float) -> None:
        for i, (_text, value) in enumerate(SPEED_CHOICES):
            if value == speed:
                self.speed.setCurrentIndex(i)


def position_text(seconds: float, seq: int, end_seconds: float, end_seq: int) -> str:
    return f"{clock_text(seconds)} / {clock_text(end_seconds)} · event {seq:,} of {end_seq:,}"


def clock_text(seconds: float) -> str:
    """m:ss.s (h:mm:ss past an hour)."""
    if seconds >= 3600:
        whole = int(seconds)
        return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"
