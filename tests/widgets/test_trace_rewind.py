"""Trace dock during playback: given the same run at another moment, it rewinds the rows it has read in place
(no model reset) and then reads exactly as a fresh Trace given that moment — back past rows it had read,
forward again, past one page of rows (`CHUNK`) and with a node filter."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from engine.projection import project
from tests.perf.synthetic_run import synthetic_run
from tests.widgets.dock_contents import model_rows
from widgets.trace import TracePanel
from widgets.trace.trace_model import CHUNK


def _fresh_rows(qtbot: QtBot, projection: object, node_filter: str | None) -> list[tuple[object, ...]]:
    fresh = TracePanel()
    qtbot.addWidget(fresh)
    fresh.clock_running = False
    fresh.set_node_filter(node_filter)
    fresh.set_projection(projection)  # type: ignore[arg-type]
    return model_rows(fresh.model)


def test_the_trace_rewound_to_another_moment_reads_as_a_fresh_trace_there(qtbot: QtBot) -> None:
    events = synthetic_run(executions=CHUNK + 200, lanes=20)
    n = len(events)
    panel = TracePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    panel.clock_running = False
    resets: list[int] = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.set_projection(project(events, until_seq=n * 9 // 10))
    root = panel.model.index(0, 0)
    for row in range(3):  # the person opens a few executions: their calls are read
        panel.view.expand(panel.model.index(row, 0, root))
    for node_filter in (None, "n3"):
        if node_filter is not None:
            panel.set_node_filter(node_filter)
        for seq in (n * 2 // 3, n // 2 + 5, n // 10, 40, n * 3 // 4, n // 3):  # back, back, back, back, forward, back
            at = project(events, until_seq=seq)
            panel.set_projection(at)
            assert panel.projection is at
            assert model_rows(panel.model) == _fresh_rows(qtbot, at, node_filter), (node_filter, seq)
    assert len(resets) == 2  # the first moment and the node filter: every other moment was rewound
