"""The workflow versions a run's sub-graph nodes ran: recorded with the run, read back to replay or check it.

A sub-graph node runs another workflow: a file it points to (`params.path`) or one held inline
(`params.graph`). A run records the version each ran, so a replay, a fork, `triadic check` and a
bundle use what ran, not today's file:

- `sub_graph_documents(plan)`: node path ("sub", "sub/inner" for nested ones) → (version hash,
  document) of every sub-graph of a compiled plan;
- the run stores each document as a workflow version (`TraceStore.save_workflow`) and names them in
  `RunStarted.settings["sub_graphs"]` as node path → version hash (`recorded_hashes` reads it back);
- `recorded_documents(store, hashes)`: node path → document, from the store, for
  `compile_workflow(..., recorded=...)`; `SubGraphVersionMissing` names a version the store lacks.

Invariant: a run without sub-graphs records nothing (its `settings` are as before); a run recorded
before sub-graph versions were kept has no `sub_graphs` entry and reads as having none recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine.events import RunStarted
    from engine.runtime.plan import RunPlan

SETTINGS_KEY = "sub_graphs"


class SubGraphVersionMissing(LookupError):
    """A sub-graph version a run names is not in the store; the message says which."""


class _Versions(Protocol):
    def workflow_version(self, workflow_hash: str) -> dict[str, Any] | None: ...


def sub_graph_documents(plan: RunPlan, prefix: str = "") -> dict[str, tuple[str, Mapping[str, Any]]]:
    out: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for nid, subplan in plan.subplans.items():
        out[prefix + nid] = (subplan.workflow_hash, subplan.document)
        out.update(sub_graph_documents(subplan, f"{prefix}{nid}/"))
    return out


def recorded_hashes(started: RunStarted | None) -> dict[str, str]:
    """Node path → version hash of the sub-graphs `started`'s run recorded (none for older runs)."""
    found = (started.settings or {}).get(SETTINGS_KEY) if started is not None else None
    if not isinstance(found, dict):
        return {}
    return {str(path): str(version) for path, version in found.items() if isinstance(version, str)}


def recorded_documents(store: _Versions, hashes: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path, version in hashes.items():
        document = store.workflow_version(version)
        if document is None:
            raise SubGraphVersionMissing(f"the version {version[:12]} of sub-graph {path!r} that the run "
                                         "recorded is not in the store")
        out[path] = document
    return out
