"""The resident size of the real window — `triadic gui FILE` as a person starts it — once the file is open.

`python -m tests.perf.window_rss FILE` launches the application exactly as `triadic gui FILE` does
(`app.gui.launch`: the qasync loop, the cycle collector, the trace store opened after the window shows,
the default layout of a first start: its own settings folder and database), waits until the file is
open and the window has rested `RESTED_S` (validation, minimap, the band's edge image built at rest,
freed memory given back), prints `{"rss_mb", "rss_anon_mb", "rss_file_mb", "run_modules_loaded"}` as
one JSON line and quits. `rss_file_mb` is the shared libraries' pages; `run_modules_loaded` says
whether what a run needs (the engine runtime, tokenizer tables, litellm) was loaded although no one
reached for Run. `measure(path)` runs it in a fresh process and returns that dict.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

RESTED_S = 4.0
RUN_MODULES = ("engine.runtime", "tiktoken", "litellm")


def _status_mb() -> dict[str, float]:
    fields = {"VmRSS": "rss_mb", "RssAnon": "rss_anon_mb", "RssFile": "rss_file_mb"}
    values: dict[str, float] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name = line.split(":")[0]
        if name in fields:
            values[fields[name]] = round(int(line.split()[1]) / 1024, 1)
    return values


def _probe(path: str, folder: str) -> int:
    from PySide6.QtCore import QTimer

    import app.gui as gui

    app = gui.application()

    def main_window() -> Any:
        return next(w for w in app.topLevelWidgets() if hasattr(w, "document"))

    def report() -> None:
        window = main_window()
        print(json.dumps({**_status_mb(), "opened": window.document.path == path,
                          "run_modules_loaded": [m for m in RUN_MODULES if m in sys.modules]}), flush=True)
        window.document.undo_stack.setClean()
        window.close()
        app.quit()

    def opened(_path: str) -> None:
        QTimer.singleShot(int(RESTED_S * 1000), report)

    def watch() -> None:
        main_window().files.opened.connect(opened)

    QTimer.singleShot(0, watch)  # the window exists once the loop turns; the file is read meanwhile
    return gui.launch(path, db=str(Path(folder) / "trace.db"))


def measure(path: str) -> dict[str, Any]:
    """The window's figures with `path` open, from a fresh process with a first start's settings."""
    with tempfile.TemporaryDirectory(prefix="triadic-window-rss-") as folder:
        env = {**os.environ, "XDG_CONFIG_HOME": folder, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
        done = subprocess.run([sys.executable, "-m", "tests.perf.window_rss", path, folder], env=env,
                              capture_output=True, text=True, timeout=120, check=True)
        return dict(json.loads(next(line for line in reversed(done.stdout.splitlines()) if line.startswith("{"))))


if __name__ == "__main__":
    sys.exit(_probe(sys.argv[1], sys.argv[2]))
