"""The workflow versions a run's sub-graph nodes ran: recorded with the run, read back to replay or check it.

A sub-graph node runs another workflow: a file it points to (`params.path`) or one held inline
(`params.graph`). A run records the version each ran, so a replay, a fork, `triadic check` and a
bundle use what ran, not today's file:

- `sub_graph_documents(plan)`: node path ("sub", "sub/inner" for nested ones) → (version hash,
  document) of every sub-graph of a compiled plan;
- the run stores each document as a workflow version (`TraceStore.save_workflow`) and names them in
  `RunStarted.settings["sub_graphs"]` as node path → version hash (`recorded_hashes` reads it back);
- `recorded_documents(store, hashes)`: node path → document, from the store, for
  `compile_workflow(..., recorded=...)`; `SubGraphVersionMissing` names a version the store lacks;
- `node_params(document, sub_graphs, node_id)`: the parameters a node ran with — an inner node
  "sub/inner" read in the version of its sub-graph (what a fork of it edits).

Invariant: a run without sub-graphs records nothing (its `settings` are as before); a run recorded
before sub-graph versions were kept has no `sub_graphs` entry and reads as having none recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine.events import Event
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


def recorded_hashes(started: Event | None) -> dict[str, str]:
    """Node path → version hash of the sub-graphs the run of `started` (its `RunStarted`) recorded (none
    for older runs, or when `started` is not a `RunStarted`)."""
    from engine.events import RunStarted

    found = (started.settings or {}).get(SETTINGS_KEY) if isinstance(started, RunStarted) else None
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


def node_params(document: Mapping[str, Any], sub_graphs: Mapping[str, Mapping[str, Any]],
                node_id: str) -> dict[str, Any]:
    """The parameters of `node_id` as the run ran it ({} when the versions do not have it)."""
    path, _, own = node_id.rpartition("/")
    where = sub_graphs.get(path) if path else document
    if where is None:  # a run recorded before sub-graph versions were kept: its sub-graph node's
        where, own = document, node_id.split("/", 1)[0]
    node = next((n for n in where.get("nodes") or [] if isinstance(n, dict) and n.get("id") == own), {})
    return dict(node.get("params") or {})
