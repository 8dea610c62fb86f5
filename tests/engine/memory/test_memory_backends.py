"""Memory backends (in-memory and over the store) and gated writes."""

from __future__ import annotations

from typing import Any

import pytest

from engine.checks import Verdict
from engine.memory import InMemoryBackend, MemoryEntry, StoreMemoryBackend, admit, append_value, scope_id_for


def test_scope_ids() -> None:
    assert scope_id_for("run", run_id="r1", workflow_id="w1") == "r1"
    assert scope_id_for("workflow", run_id="r1", workflow_id="w1") == "w1"
    assert scope_id_for("global", run_id="r1", workflow_id="w1") == ""
    with pytest.raises(ValueError, match="unknown memory scope 'session'"):
        scope_id_for("session", run_id="r1", workflow_id="w1")


def test_in_memory_scopes_are_isolated_and_values_copied() -> None:
    memory = InMemoryBackend()
    value = {"facts": ["a"]}
    memory.write("notes", "run", "r1", "k", value, node_id="n1")
    value["facts"].append("mutated after write")
    assert memory.read("notes", "run", "r1", "k") == {"facts": ["a"]}
    assert memory.read("notes", "run", "r2", "k") is None
    assert memory.read("notes", "workflow", "r1", "k") is None
    assert memory.read("other", "run", "r1", "k") is None
    read = memory.read("notes", "run", "r1", "k")
    assert isinstance(read, dict)
    read["facts"].clear()
    assert memory.read("notes", "run", "r1", "k") == {"facts": ["a"]}
    with pytest.raises(ValueError):
        memory.write("notes", "forever", "", "k", 1)


def test_history_keeps_rejected_writes_without_applying_them() -> None:
    memory = InMemoryBackend()
    memory.write("notes", "global", "", "k", 1)
    memory.write("notes", "global", "", "k", 2, admitted=False, reason="gate said revise", node_id="m")
    memory.write("notes", "global", "", "other", 3)
    assert memory.read("notes", "global", "", "k") == 1
    history = memory.history("notes", "global", "")
    assert [(e.key, e.value, e.admitted) for e in history] == [("k", 1, True), ("k", 2, False), ("other", 3, True)]
    assert history[1].reason == "gate said revise" and history[1].node_id == "m"
    assert memory.history("notes", "run", "") == []


def test_append_value() -> None:
    memory = InMemoryBackend()
    assert append_value(memory, "log", "run", "r", "k", "a") == ["a"]
    assert append_value(memory, "log", "run", "r", "k", "b") == ["a", "b"]
    memory.write("log", "run", "r", "scalar", 7)
    assert append_value(memory, "log", "run", "r", "scalar", 8) == [7, 8]


class FakeStore:
    """The two TraceStore methods the adapter uses; `land` plays the MemoryWritten event arriving."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def land(self, **row: Any) -> None:
        self.rows.append(row)

    def memory_value(self, memory: str, scope: str, scope_id: str, key: str) -> object | None:
        hits = [r["value"] for r in self.rows if (r["memory"], r["scope"], r["scope_id"], r["key"]) ==
                (memory, scope, scope_id, key) and r.get("admitted", True)]
        return hits[-1] if hits else None

    def memory_history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]:
        return [MemoryEntry(**r) for r in self.rows if (r["memory"], r["scope"], r["scope_id"]) == (memory, scope, scope_id)]


def test_store_backend_caches_writes_until_the_event_lands() -> None:
    store = FakeStore()
    store.land(memory="notes", scope="workflow", scope_id="w", key="k", value="old", node_id="earlier")
    backend = StoreMemoryBackend(store)
    assert backend.read("notes", "workflow", "w", "k") == "old"
    backend.write("notes", "workflow", "w", "k", "new", node_id="m1")
    assert store.memory_value("notes", "workflow", "w", "k") == "old"  # the store is not written
    assert backend.read("notes", "workflow", "w", "k") == "new"
    assert [e.value for e in backend.history("notes", "workflow", "w")] == ["old", "new"]
    store.land(memory="notes", scope="workflow", scope_id="w", key="k", value="new", node_id="m1")
    history = backend.history("notes", "workflow", "w")
    assert [e.value for e in history] == ["old", "new"]  # not doubled once the event landed
    assert history[0] == MemoryEntry("notes", "workflow", "w", "k", "old", True, "", "earlier")
    backend.write("notes", "workflow", "w", "k", "bad", admitted=False, reason="rejected")
    assert backend.read("notes", "workflow", "w", "k") == "new"
    assert backend.read("notes", "workflow", "w", "missing") is None


def test_admit_gating() -> None:
    assert admit(None, False) == (True, "not gated")
    assert admit(Verdict("reject", 0.0, ["x"]), False)[0] is True
    ok, why = admit(None, True)
    assert not ok and "without a gate verdict" in why
    ok, why = admit(Verdict("approve", 0.9, []), True)
    assert ok and "0.90" in why
    ok, why = admit(Verdict("revise", 0.3, ["cites no source", "too long"]), True)
    assert not ok and "revise" in why and "cites no source; too long" in why
    assert admit(Verdict("reject", 0.0, []), True) == (False, "gate verdict was reject (score 0.00): no reason given")
