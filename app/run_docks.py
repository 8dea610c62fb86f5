"""The run docks: a registry of the panels that show a run, mounted by the window as dock widgets.

Each entry names a panel (the well-known names the controller routes by: "trace", "timeline",
"call", "cost", "memory", "verdicts", "events", "human", "contracts", "runs", "compare"), its title, its default area and a
factory returning a `widgets.run_panel.RunPanel` (or a plain QWidget for a dock that is not fed a run,
such as a runs list). Adding a dock is one `RunDockSpec` line in `RUN_DOCKS`.

`mount_run_docks(window, controller)` makes one `QDockWidget` per entry (movable, floatable, closable,
tabbed with the other run docks of its area), gives each `RunPanel` to the controller
(`RunViews.mount`), and returns the docks and their View ▸ Panels toggle actions (Ctrl+Alt+1…9, 0, -, =).
The window's existing state saving (`saveState` / `restoreState`, keyed by the docks' object names
"dock_<name>") keeps the layout.

A `lazy` entry (the Timeline and Cost & tokens docks: pyqtgraph and numpy, ~0.25 s to import; the
Verdicts, Memory and Contracts docks, hidden tabs whose modules and widgets the first frame does not
need) gets its dock, title, place and toggle at start-up like any other, but its panel is built,
imported and mounted only when the dock is first shown (`LazyDockPanel`); they start as hidden tabs,
so the window's start-up never loads them. Mounting feeds the panel the selected run then, as any panel.
The Timeline and Cost & tokens docks (`needs_run`) also wait for a run to show: in front with no run,
they say how to get one (a saved layout may put them in front at start-up).

Invariants: a factory that raises is reported in the status bar and its dock left out (the window
still opens; a lazy one's dock says so in place of the panel); names are unique; the order of
`RUN_DOCKS` is the order of View ▸ Panels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from app.actions import set_tip
from app.lazy_dock import LazyDockPanel
from widgets.call_inspector import CallInspectorPanel
from widgets.events_view import EventsPanel
from widgets.human_gate import HumanGatePanel
from widgets.run_panel import RunPanel
from widgets.trace import TracePanel

if TYPE_CHECKING:
    from app.controllers.run_controller import RunController

Area = Qt.DockWidgetArea


@dataclass(frozen=True)
class RunDockSpec:
    name: str
    title: str
    area: Area
    factory: Callable[..., QWidget]
    with_controller: bool = False  # the factory is given the RunController (e.g. for the store's path)
    lazy: bool = False  # the panel is built when its dock is first shown (a heavy import)
    needs_run: str = ""  # lazy, and built only once a run is shown too; what the dock says until then


def _compare_panel() -> QWidget:
    from widgets.compare import ComparePanel

    return ComparePanel()


def _runs_panel(controller: RunController) -> QWidget:
    from widgets.runs import RunsPanel

    return RunsPanel(controller.db_path)  # its own connection to the same file, read and deleted off the loop


_NO_RUN = "No run to show yet. Run the workflow (F5) or open a past run from the Runs list to see {what}."


def _timeline_panel() -> QWidget:
    from widgets.timeline import TimelinePanel  # pyqtgraph + numpy: only when the dock is first shown

    return TimelinePanel()


def _cost_panel() -> QWidget:
    from widgets.cost import CostPanel  # pyqtgraph + numpy: only when the dock is first shown

    return CostPanel()


def _verdicts_panel() -> QWidget:
    from widgets.verdicts import VerdictsPanel  # a hidden tab at start-up: built when first shown

    return VerdictsPanel()


def _memory_panel() -> QWidget:
    from widgets.memory_view import MemoryPanel  # a hidden tab at start-up: built when first shown

    return MemoryPanel()


def _contracts_panel() -> QWidget:
    from widgets.contracts import ContractsPanel  # a hidden tab at start-up: built when first shown

    return ContractsPanel()


# One line per run dock; tabbed per area in this order (the first of an area is raised).
RUN_DOCKS: list[RunDockSpec] = [
    RunDockSpec("trace", "Trace", Area.BottomDockWidgetArea, TracePanel),
    RunDockSpec("timeline", "Timeline", Area.BottomDockWidgetArea, _timeline_panel, lazy=True,
                needs_run=_NO_RUN.format(what="its model and tool calls laid out in time, node by node")),
    RunDockSpec("events", "Events", Area.BottomDockWidgetArea, EventsPanel),
    RunDockSpec("call", "Call", Area.RightDockWidgetArea, CallInspectorPanel),
    RunDockSpec("cost", "Cost && tokens", Area.RightDockWidgetArea, _cost_panel, lazy=True,
                needs_run=_NO_RUN.format(what="what it spends, in money and tokens, as it goes")),
    RunDockSpec("verdicts", "Verdicts", Area.RightDockWidgetArea, _verdicts_panel, lazy=True),
    RunDockSpec("memory", "Memory", Area.RightDockWidgetArea, _memory_panel, lazy=True),
    RunDockSpec("human", "Human gate", Area.RightDockWidgetArea, HumanGatePanel),
    RunDockSpec("runs", "Runs", Area.LeftDockWidgetArea, _runs_panel, with_controller=True),
    RunDockSpec("contracts", "Contracts", Area.RightDockWidgetArea, _contracts_panel, lazy=True),
    RunDockSpec("compare", "Compare", Area.BottomDockWidgetArea, _compare_panel),
]


_TOGGLE_KEYS = "1234567890-="  # View ▸ Panels: Ctrl+Alt+1 … 9, 0, -, = in the order of RUN_DOCKS


def mount_run_docks(window: QMainWindow, controller: RunController,
                    specs: list[RunDockSpec] | None = None) -> tuple[dict[str, QDockWidget], dict[str, QAction]]:
    docks: dict[str, QDockWidget] = {}
    actions: dict[str, QAction] = {}
    by_area: dict[Area, QDockWidget] = {}
    for index, spec in enumerate(RUN_DOCKS if specs is None else specs):
        if spec.name in docks:
            raise ValueError(f"run dock {spec.name!r} registered twice")
        factory = (lambda s=spec: s.factory(controller)) if spec.with_controller else spec.factory
        if spec.lazy:
            widget: QWidget = LazyDockPanel(spec.name, spec.title, factory, controller, needs_run=spec.needs_run)
        else:
            try:
                widget = factory()
            except Exception as exc:  # one broken panel must not keep the window from opening
                controller.status_message.emit(f"The {spec.title} panel could not be built: {exc}")
                continue
        dock = QDockWidget(spec.title, window)
        dock.setObjectName(f"dock_{spec.name}")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        window.addDockWidget(spec.area, dock)
        first = by_area.setdefault(spec.area, dock)
        if first is not dock:
            window.tabifyDockWidget(first, dock)
        if isinstance(widget, RunPanel):
            controller.views.mount(spec.name, widget)
        elif isinstance(widget, LazyDockPanel):
            widget.watch(dock)
        action = dock.toggleViewAction()
        action.setObjectName(f"action_toggle_{spec.name}")
        if index < len(_TOGGLE_KEYS):
            action.setShortcut(QKeySequence(f"Ctrl+Alt+{_TOGGLE_KEYS[index]}"))
        set_tip(action, f"Show or hide the {spec.title} panel")
        docks[spec.name] = dock
        actions[f"toggle_{spec.name}"] = action
    for first in by_area.values():
        first.raise_()
    controller.views.panel_raise_requested.connect(lambda name: _raise(docks.get(name)))
    return docks, actions


def _raise(dock: QDockWidget | None) -> None:
    if dock is not None:
        dock.show()
        dock.raise_()
