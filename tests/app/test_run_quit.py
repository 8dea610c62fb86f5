"""Quitting the application with a run still live (Qt 6 closes the windows first: the window asks, the
person says stop): the run ends recorded as cancelled and the process exits — as `triadic gui` runs it,
through `app.event_loop.run_until_quit` with the controller's shutdown as its clean-up."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from engine.store.store import TraceStore

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import asyncio, faulthandler, os, sys
    faulthandler.dump_traceback_later(75, exit=True)  # a hang says where it hangs (stderr), not just "timed out"
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings, QTimer
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, sys.argv[2])
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    import app.main_window as main_window
    from app.document import Document
    from app.event_loop import create_event_loop, run_until_quit
    from app.gui import application
    from engine.graph.model import Workflow
    from engine.llm.sim import SimGateway

    main_window.confirm_stop_runs = lambda window, count, on_yes: on_yes()  # the person says "Stop and Close"
    app = application()
    loop = create_event_loop(app)
    window = main_window.MainWindow(Document(Workflow()), db=sys.argv[1])
    window.document.open_file(sys.argv[3])
    window.runs.gateway_factory = SimGateway
    window.runs.toggle_breakpoints(["executor"])
    window.show()

    async def go():
        run_id = await window.runs.start_run({}, {})
        print(run_id, flush=True)
        while not window.runs.runs[run_id].held:
            await asyncio.sleep(0.01)
        app.quit()

    QTimer.singleShot(0, lambda: asyncio.ensure_future(go()))
    sys.exit(run_until_quit(app, loop, window.runs.shutdown))
""")


def test_quitting_with_a_live_run_records_it_cancelled(tmp_path: Path) -> None:
    db = tmp_path / "trace.db"
    example = ROOT / "resources" / "examples" / "triad.triadic.json"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(db), str(tmp_path), str(example)], cwd=ROOT,
                          capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    run_id = done.stdout.split()[0]
    with TraceStore(db) as store:
        stored = store.get_run(run_id)
        assert stored is not None and stored.status == "cancelled"
