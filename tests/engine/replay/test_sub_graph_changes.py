"""Before a re-run or a fork, what today's workflow changes in what the run ran is said for its sub-graph
files too: each differing node named by its path inside the sub-graph (nested ones included), a file that
cannot be read today said with the reason, and for a run recorded before sub-graph versions were kept,
that its sub-graph files cannot be checked — never a silent "no change"."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from engine.graph.format import workflow_to_dict
from engine.llm.sim import SimGateway
from engine.replay import ReplaySource, RunChanges, load_source, run_changes
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.replay.sub_graph_files import (
    SUB_FILE,
    caller_document,
    edit_node,
    record_caller,
    write_sub_graph,
)
from tests.engine.runtime.fakes import build


def _today(source: ReplaySource, folder: Path) -> RunChanges:
    """What the caller workflow, with its sub-graph file in `folder`, changes in what the run ran."""
    return run_changes(source.document, source.sub_graphs, caller_document(), folder)


def test_a_changed_sub_graph_file_names_its_nodes_by_their_path(tmp_path: Path, store: TraceStore) -> None:
    sub = write_sub_graph(tmp_path)
    _, result = asyncio.run(record_caller(store, tmp_path))
    source = load_source(store, result.run_id)
    assert not _today(source, tmp_path)  # nothing changed: nothing said
    edit_node(sub, "critic", max_rounds=1)
    changes = _today(source, tmp_path)
    assert changes.lines == ["research/critic: params changed"] and not changes.unchecked
    sub.unlink()
    (line,) = _today(source, tmp_path).lines
    assert line.startswith(f"research: its file {SUB_FILE} cannot be read today (")


def test_nested_sub_graphs_are_compared_by_their_full_path(tmp_path: Path, store: TraceStore) -> None:
    sub = write_sub_graph(tmp_path)
    (tmp_path / "mid.triadic.json").write_text(json.dumps(caller_document()))  # runs the triad file as "research"
    outer = build([("goal", "input", {"name": "goal", "default": "Plan a garden"}),
                   ("mid", "subgraph", {"path": "mid.triadic.json"}), ("result", "output", {"name": "result"})],
                  ["goal.value->mid.input", "mid.output->result.value"])
    run = Run(compile_workflow(outer, base_dir=tmp_path), gateway=SimGateway(), store=store)
    result = asyncio.run(run.wait())
    assert result.status == "succeeded", result.reason
    source = load_source(store, result.run_id)
    assert set(source.sub_graphs) == {"mid", "mid/research"}
    edit_node(sub, "executor", temperature=0.9)
    changed = caller_document()
    changed["settings"]["seed"] = 7
    (tmp_path / "mid.triadic.json").write_text(json.dumps(changed))
    assert run_changes(source.document, source.sub_graphs, workflow_to_dict(outer), tmp_path).lines == [
        "mid: the sub-graph's run settings changed", "mid/research/executor: params changed"]


def test_a_run_recorded_before_sub_graph_versions_says_they_cannot_be_checked(
        tmp_path: Path, store: TraceStore) -> None:
    write_sub_graph(tmp_path)
    _, result = asyncio.run(record_caller(store, tmp_path))
    source = load_source(store, result.run_id)
    changes = run_changes(source.document, {}, caller_document(), tmp_path)  # an older run: none recorded
    assert changes and not changes.lines and changes.unchecked == ["research"]
    assert "sub-graph node research ran cannot be checked against today's files" in changes.unchecked_note()
    assert "reads today's files" in changes.unchecked_note()
