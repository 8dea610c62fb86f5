"""A run records the version of each sub-graph it ran (stored, and named in `RunStarted.settings`): a replay
runs that version even after the file changed on disk, and a fork's dialog reads an inner node's
parameters from it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from engine import events as ev
from engine.replay import load_source
from engine.replay.identity import first_difference
from engine.runtime.sub_graph_versions import node_params, recorded_hashes
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import NoProvider, replay
from tests.engine.replay.sub_graph_files import caller_document, record_caller, write_sub_graph


def test_the_recorded_version_is_replayed_after_the_file_changed(tmp_path: Path) -> None:
    sub = write_sub_graph(tmp_path)
    with TraceStore(tmp_path / "t.db") as store:
        _, result = asyncio.run(record_caller(store, tmp_path))
        original = list(store.iter_events(result.run_id))
        hashes = recorded_hashes(original[0])
        assert list(hashes) == ["research"] and store.workflow_version(hashes["research"]) is not None
        changed = json.loads(sub.read_text())
        changed["nodes"] = [n for n in changed["nodes"] if n["role"] != "critic"]  # today's file: no critic
        sub.write_text(json.dumps(changed))
        NoProvider.calls = 0
        _, again = asyncio.run(replay(store, result.run_id, live=NoProvider()))
        assert NoProvider.calls == 0 and again.status == "succeeded"
        assert first_difference(original, list(store.iter_events(again.run_id))) is None
        source = load_source(store, result.run_id)
        critic = node_params(source.document, source.sub_graphs, "research/critic")
        assert critic["max_rounds"] == 3 and "path" in node_params(source.document, {}, "research/critic")


def test_a_run_without_sub_graphs_records_none() -> None:
    started = ev.RunStarted(run_id="r", seq=1, ts=0.0, workflow_id="w", workflow_name="w", workflow_hash="h",
                            settings={"seed": 1})
    assert recorded_hashes(started) == {} and recorded_hashes(None) == {}
    assert caller_document()["nodes"][1]["params"]["path"] == "triad-sub.triadic.json"
