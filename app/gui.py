"""`launch()`: start the GUI — QApplication, the one qasync loop, the main window — and run it.

Invariants: litellm is NOT imported here (cold start target < 1.5 s to the window shown); what runs
need (the engine, tokenizer tables, litellm if a model needs it) loads in a worker thread when a
person reaches for Run (`app.preload`), not when the window shows or a file opens; threads share two
heaps (`engine.memory_trim.share_heaps`, set before the first thread starts); runs still live when
the application quits are cancelled and recorded; a file
given is read off the GUI thread while the window shows (`FileController.open_path`), and one that
cannot be opened is reported in a dialog while the window stays on a blank workflow; the theme is
applied once, before any widget is built; with `TRIADIC_QUIT_AFTER_SHOW=1` the window prints
`{"window_shown_s": <seconds since TRIADIC_T0 or process start>, "cpu_at_shown_s": <the process's CPU
seconds by then>, "litellm_imported": bool, "deferred_loaded": [those of `DEFERRED` already imported]}`
once it is shown — with a file, once the file is in — and quits (used by tests/perf/bench_startup.py).
"""

from __future__ import annotations

import json
import os
import sys
import time

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app import settings_store
from app.about import app_icon
from app.document import Document
from app.event_loop import create_event_loop, run_until_quit
from app.gui_collector import GuiThreadCollector
from app.main_window import MainWindow
from app.serial_painting import paint_on_the_gui_thread
from app.themes import apply_theme
from app.window_wiring import show_theme
from engine.graph.model import Workflow
from engine.memory_trim import share_heaps

QUIT_AFTER_SHOW = "TRIADIC_QUIT_AFTER_SHOW"
# What the first frame does not need, loaded later or on first use: the model gateway, the store, the
# plots, the key ring, the run engine, the checks of verifier nodes, the tokenizer tables, the panels
# of the docks that open as hidden tabs (the Contracts package is there: the inspector edits contracts).
DEFERRED = ("litellm", "sqlalchemy", "sqlmodel", "numpy", "pyqtgraph", "keyring", "jsonschema", "tiktoken",
            "engine.store", "engine.runtime", "engine.checks", "engine.llm.gateway", "widgets.timeline",
            "widgets.cost", "widgets.verdicts", "widgets.memory_view")
START_TIME = "TRIADIC_T0"


def application() -> QApplication:
    """The process's QApplication (created on first call)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    paint_on_the_gui_thread()
    share_heaps()  # before Qt or the window start a thread: fewer heaps keep freed memory (engine.memory_trim)
    app = QApplication(sys.argv[:1])
    app.setApplicationName("Triadic")
    app.setOrganizationName("Triadic")
    app.setDesktopFileName("triadic")  # matches triadic.desktop: the desktop shows its icon and name
    app.setWindowIcon(app_icon())
    return app


def open_window(path: str | None = None, *, db: str | None = None) -> MainWindow:
    """A shown main window, opening `path` if given: the file is read off the GUI thread and replaces
    the blank workflow when it is whole (`window.files.opened`), or its problems are shown and the
    window stays on the blank workflow (`window.files.open_failed`)."""
    app = application()
    theme = apply_theme(app, settings_store.theme())  # before any widget: each is styled once, as it is built
    window = MainWindow(Document(Workflow()), db=db)
    show_theme(window, theme)
    if path:
        window.files.open_path(path)  # read while the window shows
    window.show()
    window.view.fit_to_view()
    return window


def _started_at() -> float:
    value = os.environ.get(START_TIME)
    return float(value) if value else time.time() - time.process_time()


def launch(path: str | None, *, db: str | None = None) -> int:
    """Show the main window with `path` (or a blank workflow) and run until it closes."""
    app = application()
    collector = GuiThreadCollector(app)  # cycles freed on the GUI thread only: a worker never destroys a Qt object
    app.aboutToQuit.connect(collector.stop)
    loop = create_event_loop(app)
    window = open_window(path, db=db)
    QTimer.singleShot(0, window.runs.warm_up)  # once painted: the store opens off the GUI loop
    if os.environ.get(QUIT_AFTER_SHOW) == "1":
        def report_and_quit() -> None:
            shown = {"window_shown_s": round(time.time() - _started_at(), 4),
                     "cpu_at_shown_s": round(time.process_time(), 4),
                     "litellm_imported": "litellm" in sys.modules,
                     "deferred_loaded": [name for name in DEFERRED if name in sys.modules]}
            print(json.dumps(shown), flush=True)
            window.document.undo_stack.setClean()
            window.close()
            app.quit()
        if path:  # shown with its file: once the file is in (or its problems were said)
            window.files.opened.connect(lambda _path: QTimer.singleShot(0, report_and_quit))
            window.files.open_failed.connect(lambda _path: QTimer.singleShot(0, report_and_quit))
        else:
            QTimer.singleShot(0, report_and_quit)
    return run_until_quit(app, loop, window.runs.shutdown)  # a run still live ends recorded cancelled
