"""StoreMemoryBackend over the real TraceStore: a write is cached until its MemoryWritten event lands."""

from __future__ import annotations

from pathlib import Path

from engine import events as ev
from engine.memory import StoreMemoryBackend
from engine.store import TraceStore


def test_write_then_event_lands_in_the_real_store(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "trace.sqlite") as store:
        backend = StoreMemoryBackend(store)
        backend.write("notes", "run", "run-1", "fact", {"n": 1}, node_id="mem")
        assert backend.read("notes", "run", "run-1", "fact") == {"n": 1}
        assert store.memory_value("notes", "run", "run-1", "fact") is None
        with store.writer() as writer:
            writer.append(ev.RunStarted(run_id="run-1", seq=0, ts=0.0, workflow_id="wf", workflow_name="w",
                                        workflow_hash="h"))
            writer.append(ev.MemoryWritten(run_id="run-1", seq=1, ts=0.1, node_id="mem", memory="notes",
                                           scope="run", key="fact", value={"n": 1}))
            writer.flush()
        assert store.memory_value("notes", "run", "run-1", "fact") == {"n": 1}
        history = StoreMemoryBackend(store).history("notes", "run", "run-1")
        assert [(e.key, e.value, e.node_id) for e in history] == [("fact", {"n": 1}, "mem")]
        assert [e.value for e in backend.history("notes", "run", "run-1")] == [{"n": 1}]


def test_a_runs_memory_writes_are_listed_in_order_refused_ones_too(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "trace.sqlite") as store:
        with store.writer() as writer:
            for run in ("run-1", "run-2"):
                writer.append(ev.RunStarted(run_id=run, seq=0, ts=0.0, workflow_id="wf", workflow_name="w",
                                            workflow_hash="h"))
            writer.append(ev.MemoryWritten(run_id="run-1", seq=1, ts=0.1, node_id="mem", memory="notes",
                                           scope="workflow", key="a", value="first"))
            writer.append(ev.MemoryWritten(run_id="run-2", seq=1, ts=0.1, node_id="mem", memory="notes",
                                           scope="workflow", key="a", value="other run"))
            writer.append(ev.MemoryWritten(run_id="run-1", seq=2, ts=0.2, node_id="mem", memory="notes",
                                           scope="workflow", key="b", value="second", admitted=False,
                                           reason="gate verdict missing or not approving"))
        writes = store.memory_writes("run-1")
        assert [(w.key, w.value, w.admitted, w.reason) for w in writes] == [
            ("a", "first", True, ""), ("b", "second", False, "gate verdict missing or not approving")]
        assert store.memory_writes("nope") == []
