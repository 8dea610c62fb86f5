"""Checking a bundle's sub-graph versions (`sub_graphs.json`, `engine.bundle.format`) before anything is stored.

`sub_graph_versions(found, started)`: the parsed member, refused with a `BundleError` unless it holds
exactly the versions the run's `RunStarted` names and each document hashes to its key.
"""

from __future__ import annotations

from typing import Any

from engine import events as ev
from engine.bundle import format as fmt
from engine.bundle.format import BundleError
from engine.graph.format import document_hash
from engine.runtime.sub_graph_versions import recorded_hashes


def sub_graph_versions(found: Any, started: ev.Event) -> dict[str, dict[str, Any]]:
    """The sub-graph versions, exactly those the run names (`RunStarted.settings["sub_graphs"]`), each
    document hashing to its key."""
    if not isinstance(found, dict) or not all(isinstance(d, dict) for d in found.values()):
        raise BundleError(f"{fmt.SUB_GRAPHS}: an object of version hash → workflow document")
    named = recorded_hashes(started)
    if missing := sorted(path for path, version in named.items() if version not in found):
        raise BundleError(f"{fmt.SUB_GRAPHS}: no workflow version for the sub-graph {missing[0]!r} the run ran")
    if extra := sorted(set(found) - set(named.values())):
        raise BundleError(f"{fmt.SUB_GRAPHS}: a workflow version {extra[0][:12]!r} no sub-graph of the run ran")
    for version, document in found.items():
        try:
            actual = document_hash(document)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise BundleError(f"{fmt.SUB_GRAPHS}: version {version[:12]!r} is not a workflow document") from None
        if actual != version:
            raise BundleError(f"{fmt.SUB_GRAPHS}: the document of version {version[:12]!r} hashes to "
                              f"{actual[:12]!r} (the bundle was altered)")
    return found
