"""Test-wide set-up: headless Qt painting as the window does, offline litellm prices, and a throwaway tokenizer cache per session."""

from __future__ import annotations

import gc
import os
import tempfile

from app.serial_painting import paint_on_the_gui_thread

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
paint_on_the_gui_thread()  # as the window does, before pytest-qt builds the QApplication

# The tokenizer cache of this test session (engine.llm.token_cache): never the user's own cache dir.
os.environ.setdefault("TRIADIC_CACHE_DIR", tempfile.mkdtemp(prefix="triadic-test-cache-"))


def pytest_configure(config: object) -> None:
    """Cycles are collected on the main thread only, as in the window (app/gui_collector.py): the
    automatic collector is off for the session and every test's teardown collects what is due (all of
    it after a Qt test). Left on, it runs in whichever thread allocates past its threshold — an executor
    worker — and a Qt object in a cycle destroyed there can crash a later test's event processing."""
    gc.disable()


def _collect_due() -> None:
    from app.gui_collector import collect_due

    collect_due()


def pytest_runtest_teardown(item: object) -> None:
    """A test that switched the application's theme (palette and style sheet) leaves the default one:
    a style sheet left behind changes how palettes reach widgets in every later test."""
    import sys

    if "PySide6.QtWidgets" not in sys.modules:
        _collect_due()
        return
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if isinstance(app, QApplication) and app.styleSheet():
        app.setStyleSheet("")
        app.setPalette(QPalette())
    # Widgets a Qt test dropped die here, on the GUI thread: left to a later collection they could be
    # destroyed by whichever thread triggers it (an executor worker), which Qt does not survive.
    if "qtbot" in getattr(item, "fixturenames", ()):
        gc.collect()
    else:
        _collect_due()
