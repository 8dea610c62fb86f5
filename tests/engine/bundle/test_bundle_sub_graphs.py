"""A bundle carries the workflow versions its run's sub-graph nodes ran: another Triadic, without the
sub-graph's file, imports it, replays it byte for byte with no provider call, forks it and checks the
sub-graph's contracts; sub-graph versions that were altered, left out or added are refused and the
store is left as it was; a version-1 bundle (before sub-graphs were carried) still imports."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from engine.bundle import export_run, import_bundle
from engine.contracts import check_stored_run, recorded_contracts
from engine.llm.sim import SimGateway
from engine.replay import load_source, prepare_fork, start_replay
from engine.replay.identity import first_difference
from engine.store import TraceStore
from tests.engine.bundle.bundle_helpers import members, rewrite
from tests.engine.bundle.test_bundle_refusals import _refused
from tests.engine.replay.replay_helpers import NoProvider, replay
from tests.engine.replay.sub_graph_files import record_caller, write_sub_graph


@pytest.fixture
def sub_graph_bundle(tmp_path: Path) -> Path:
    """The bundle of a run whose sub-graph file is gone once the bundle is written."""
    folder = tmp_path / "files"
    folder.mkdir()
    sub = write_sub_graph(folder, {"kind": "max_calls", "max_calls": 1, "nodes": ["executor"]})
    path = tmp_path / "run.triadic-run"
    with TraceStore(tmp_path / "source.db") as store:
        _, result = asyncio.run(record_caller(store, folder))
        assert result.status == "succeeded", result.reason
        export_run(store, result.run_id, path)
    sub.unlink()
    return path


def test_a_bundle_with_a_sub_graph_replays_forks_and_checks_without_its_file(
        sub_graph_bundle: Path, target: TraceStore) -> None:
    bundle = import_bundle(target, sub_graph_bundle)
    assert len(bundle.sub_graphs) == 1
    original = list(target.iter_events(bundle.run_id))
    NoProvider.calls = 0
    _, result = asyncio.run(replay(target, bundle.run_id, live=NoProvider()))
    assert NoProvider.calls == 0 and result.status == "succeeded"
    assert first_difference(original, list(target.iter_events(result.run_id))) is None

    async def fork() -> str:
        setup, _ = prepare_fork(target, load_source(target, bundle.run_id), "research/critic#1", live=SimGateway(),
                                model="sim/other")
        return (await start_replay(setup, target).wait()).run_id

    forked = target.get_run(asyncio.run(fork()))
    assert forked is not None and forked.fork_of == bundle.run_id and forked.status == "succeeded"
    models = {e.model for e in target.iter_events(forked.id)  # type: ignore[attr-defined]
              if e.kind == "llm_started" and e.node_id == "research/critic"}  # type: ignore[attr-defined]
    assert models == {"sim/other"}  # the edit went to the recorded sub-graph version
    run = target.get_run(bundle.run_id)
    assert run is not None
    found = check_stored_run(target, run, recorded_contracts(target, run))
    assert [(r.sub_graph, r.passed) for r in found] == [("research", False)]


def _filed(path: Path) -> dict[str, tuple[str, str]]:
    """Version hash → (workflow id, that workflow's name) as the store at `path` files each version."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT v.hash, v.workflow_id, w.name FROM workflow_versions v "
                            "JOIN workflows w ON w.id = v.workflow_id").fetchall()
    return {version: (wf_id, name) for version, wf_id, name in rows}


def test_an_imported_sub_graph_version_is_filed_under_its_own_workflow_as_a_recorded_run_files_it(
        sub_graph_bundle: Path, target: TraceStore, tmp_path: Path) -> None:
    bundle = import_bundle(target, sub_graph_bundle)
    (version,) = bundle.sub_graphs
    recorded_here, imported = _filed(tmp_path / "source.db"), _filed(target.path)
    assert imported == recorded_here  # the run's version and the sub-graph's, each under its own workflow
    assert imported[version] == ("example-triad", "Triad: plan, execute, review")
    assert imported[target.get_run(bundle.run_id).workflow_hash][0] == "wf-test"  # type: ignore[union-attr]
    NoProvider.calls = 0  # the sub-graph's file is gone: the imported version is what runs
    _, result = asyncio.run(replay(target, bundle.run_id, live=NoProvider()))
    assert NoProvider.calls == 0 and result.status == "succeeded"

    async def fork() -> str:
        setup, _ = prepare_fork(target, load_source(target, bundle.run_id), "research/executor#1",
                                live=SimGateway(), model="sim/other")
        forked = await start_replay(setup, target).wait()
        return f"{forked.status} {forked.reason}"

    assert asyncio.run(fork()).startswith("succeeded")


def test_altered_missing_or_extra_sub_graph_versions_are_refused(sub_graph_bundle: Path, target: TraceStore) -> None:
    versions = json.loads(members(sub_graph_bundle)["sub_graphs.json"])
    (version, document), = versions.items()
    altered = {version: {**document, "settings": {**document["settings"], "seed": 99}}}
    _refused(target, rewrite(sub_graph_bundle, {"sub_graphs.json": json.dumps(altered).encode()}),
             r"sub_graphs.json: the document of version .* hashes to .* \(the bundle was altered\)")
    _refused(target, rewrite(sub_graph_bundle, {"sub_graphs.json": b"{}"}),
             "sub_graphs.json: no workflow version for the sub-graph 'research'")
    extra = {**versions, "f" * 64: document}
    _refused(target, rewrite(sub_graph_bundle, {"sub_graphs.json": json.dumps(extra).encode()}),
             "a workflow version 'ffffffffffff' no sub-graph of the run ran")
    _refused(target, rewrite(sub_graph_bundle, {"sub_graphs.json": b"[1]"}), "an object of version hash")
    tampered = rewrite(sub_graph_bundle, {"sub_graphs.json": json.dumps(altered).encode()}, fix_manifest=False)
    _refused(target, tampered, "sub_graphs.json: its size or content hash differs from the manifest's")


def test_version_one_bundles_still_import_and_keep_their_four_members(
        source: tuple[TraceStore, str], sub_graph_bundle: Path, target: TraceStore, tmp_path: Path) -> None:
    store, run_id = source
    export_run(store, run_id, tmp_path / "triad.triadic-run")
    manifest = json.loads(members(tmp_path / "triad.triadic-run")["manifest.json"])
    manifest["version"] = 1
    del manifest["files"]["sub_graphs.json"]
    old = rewrite(tmp_path / "triad.triadic-run", {}, manifest=manifest, drop=("sub_graphs.json",))
    assert import_bundle(target, old).run_id == run_id
    with_member = rewrite(tmp_path / "triad.triadic-run", {}, manifest={**manifest, "run_id": run_id})
    _refused(target, with_member, "holds sub_graphs.json, which a version-1 bundle does not have")
    sub_manifest = json.loads(members(sub_graph_bundle)["manifest.json"])
    sub_manifest["version"] = 1
    del sub_manifest["files"]["sub_graphs.json"]
    _refused(target, rewrite(sub_graph_bundle, {}, manifest=sub_manifest, drop=("sub_graphs.json",)),
             "no workflow version for the sub-graph 'research'")
