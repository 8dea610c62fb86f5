"""During a critic's revise loop the critic shows "running" while its author's next round runs: that is what
the events say — one execution of the critic (its span open from its "running" to its "done") holds the
whole loop, waiting for the revision after its "revise" verdict — and the canvas overlay at that playback
moment shows the projection stopped there, `project(events, seq)`, node for node."""

from __future__ import annotations

import asyncio

from pytestqt.qtbot import QtBot

from engine import events as ev
from engine.graph.format import workflow_from_dict
from engine.projection import project
from tests.engine.contracts.contract_runs import example, run_events
from widgets.canvas import CanvasScene, CanvasView


def test_the_critic_runs_while_its_authors_next_round_runs_as_the_events_say(qtbot: QtBot) -> None:
    doc = example("triad")
    events = asyncio.run(run_events(doc))
    revise = next(e for e in events if isinstance(e, ev.VerdictIssued) and e.decision == "revise")
    next_round = next(e for e in events if isinstance(e, ev.NodeStateChanged) and e.node_id == "executor"
                      and e.state == "running" and e.round == 1)
    critic_states = [e for e in events if isinstance(e, ev.NodeStateChanged) and e.node_id == "critic"]
    assert [e.state for e in critic_states] == ["running", "done"]  # one execution holds the loop
    assert critic_states[0].seq < revise.seq < next_round.seq < critic_states[1].seq
    assert {revise.span_id, critic_states[1].span_id} == {critic_states[0].span_id}
    moment = next_round.seq + 1
    at = project(events, until_seq=moment)
    assert (at.nodes["critic"].state, at.nodes["executor"].state, at.nodes["executor"].round) == ("running",
                                                                                                   "running", 1)
    scene = CanvasScene(workflow_from_dict(doc))
    view = CanvasView(scene)
    scene.setParent(view)
    qtbot.addWidget(view)
    scene.run.animated = False
    scene.run.show(at)
    for node_id, row in at.nodes.items():
        assert scene.run.decor[node_id].state == (row.state if row.state != "-" else "queued"), node_id
    assert scene.run.decor["critic"].chip.endswith("running") and "round 1" in scene.run.decor["executor"].chip
