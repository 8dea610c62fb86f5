"""Benchmarks: scripts that print JSON-line figures (not timed tests; not in the default run).

Every bench's window paints as the app's does: Qt's GUI thread pool is switched off here, before any
bench builds its QApplication, as `app.gui.application` does (`app.serial_painting`).
"""

from app.serial_painting import paint_on_the_gui_thread

paint_on_the_gui_thread()
