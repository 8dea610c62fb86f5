"""A run bundle's round trip: export → import into another store → replay (byte-identical, zero
provider calls) and fork; a fork's bundle keeps its lineage; no key ever in a bundle."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from engine import events as ev
from engine.bundle import BundleError, export_run, import_bundle, read_bundle
from engine.llm.sim import SimGateway
from engine.replay import load_source, prepare_fork, start_replay
from engine.replay.identity import first_difference
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES, NoProvider, record, replay


def test_export_import_replay_round_trip(source: tuple[TraceStore, str], target: TraceStore, tmp_path: Path) -> None:
    store, run_id = source
    path = tmp_path / "run.triadic-run"
    manifest = export_run(store, run_id[:8], path)
    assert manifest["run_id"] == run_id and manifest["version"] == 2
    bundle = import_bundle(target, path)
    original = list(store.iter_events(run_id))
    assert bundle.run_id == run_id and list(target.iter_events(run_id)) == original
    assert target.workflow_version(bundle.events[0].workflow_hash) == \
        store.workflow_version(bundle.events[0].workflow_hash)  # type: ignore[attr-defined]
    NoProvider.calls = 0
    _, result = asyncio.run(replay(target, run_id, live=NoProvider()))
    assert NoProvider.calls == 0 and result.status == "succeeded"
    assert first_difference(original, list(target.iter_events(result.run_id))) is None


def test_an_imported_run_can_be_forked(source: tuple[TraceStore, str], target: TraceStore, tmp_path: Path) -> None:
    store, run_id = source
    export_run(store, run_id, tmp_path / "run.triadic-run")
    import_bundle(target, tmp_path / "run.triadic-run")

    async def fork() -> str:
        setup, _ = prepare_fork(target, load_source(target, run_id), "executor#1", live=SimGateway(),
                                prompt="Answer briefly: {task}", base_dir=EXAMPLES)
        return (await start_replay(setup, target).wait()).run_id

    forked = target.get_run(asyncio.run(fork()))
    assert forked is not None and forked.fork_of == run_id and forked.status == "succeeded"


def test_a_forks_bundle_keeps_its_lineage(source: tuple[TraceStore, str], target: TraceStore, tmp_path: Path) -> None:
    store, run_id = source

    async def fork() -> str:
        setup, _ = prepare_fork(store, load_source(store, run_id), "critic", live=SimGateway(),
                                    model="sim/other", base_dir=EXAMPLES)
        return (await start_replay(setup, store).wait()).run_id

    fork_id = asyncio.run(fork())
    fork_run = store.get_run(fork_id)
    assert fork_run is not None
    export_run(store, fork_id, tmp_path / "fork.triadic-run")
    import_bundle(target, tmp_path / "fork.triadic-run")
    imported = target.get_run(fork_id)
    assert imported is not None
    assert (imported.fork_of, imported.fork_at_seq) == (run_id, fork_run.fork_at_seq) != (None, None)
    renamed = import_bundle(target, tmp_path / "fork.triadic-run", as_new=True)
    copy = target.get_run(renamed.run_id)
    assert copy is not None and copy.id != fork_id and (copy.fork_of, copy.fork_at_seq) == (run_id,
                                                                                            fork_run.fork_at_seq)


def test_no_key_ever_in_a_bundle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-proj-" + "Q" * 40
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    with TraceStore(tmp_path / "s.db") as store:
        result = asyncio.run(record(store, "triad"))
        path = tmp_path / "run.triadic-run"
        export_run(store, result.run_id, path)
        raw = path.read_bytes()
        import zipfile

        with zipfile.ZipFile(path) as archive:
            text = b"".join(archive.read(n) for n in archive.namelist())
        assert secret.encode() not in raw and secret.encode() not in text
        assert os.environ["OPENAI_API_KEY"] == secret
        # a run whose events hold a key (here: an input that slipped past the checks) is not exported
        first = next(iter(store.iter_events(result.run_id)))
        assert isinstance(first, ev.RunStarted)
        with store.writer() as writer:
            leaked = ev.RunStarted(run_id="leak", seq=1, ts=0.0, span_id="run", workflow_id=first.workflow_id,
                                   workflow_name="w", workflow_hash=first.workflow_hash, inputs={"goal": secret})
            writer.append(leaked)
            writer.append(ev.RunFinished(run_id="leak", seq=2, ts=0.1, span_id="run", status="succeeded"))
        with pytest.raises(BundleError, match="looks like an API key"):
            export_run(store, "leak", tmp_path / "leak.triadic-run")
        assert not (tmp_path / "leak.triadic-run").exists()


def test_read_bundle_does_not_need_a_store(source: tuple[TraceStore, str], tmp_path: Path) -> None:
    store, run_id = source
    export_run(store, run_id, tmp_path / "run.triadic-run")
    bundle = read_bundle(tmp_path / "run.triadic-run")
    assert bundle.run_id == run_id and isinstance(bundle.events[-1], ev.RunFinished)
