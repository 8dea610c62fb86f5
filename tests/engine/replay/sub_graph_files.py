"""Helpers of the sub-graph file tests: a workflow whose sub-graph node points to a triad file beside it
(with contracts of its own), recorded into a store on the simulated provider."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.graph.format import workflow_to_dict
from engine.llm.sim import SimGateway
from engine.runtime import Run, RunResult, compile_workflow
from engine.store import TraceStore
from tests.engine.replay.replay_helpers import EXAMPLES
from tests.engine.runtime.fakes import build

SUB_FILE = "triad-sub.triadic.json"


def write_sub_graph(folder: Path, *contracts: dict[str, Any], name: str = SUB_FILE) -> Path:
    """The triad example as a file in `folder`, with `contracts` as its own."""
    doc = json.loads((EXAMPLES / "triad.triadic.json").read_text(encoding="utf-8"))
    doc["contracts"] = list(contracts)
    path = folder / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def caller(sub_file: str = SUB_FILE, **settings: Any) -> Any:
    """A workflow that runs the triad file `sub_file` as its sub-graph node "research" once."""
    return build([("goal", "input", {"name": "goal", "default": "Plan a garden"}),
                  ("research", "subgraph", {"path": sub_file}), ("result", "output", {"name": "result"})],
                 ["goal.value->research.input", "research.output->result.value"], **settings)


def caller_document(sub_file: str = SUB_FILE) -> dict[str, Any]:
    return workflow_to_dict(caller(sub_file))


async def record_caller(store: TraceStore | None, folder: Path) -> tuple[Run, RunResult]:
    """A run of `caller()` with its sub-graph file in `folder` (written first with `write_sub_graph`)."""
    run = Run(compile_workflow(caller(), base_dir=folder), gateway=SimGateway(), store=store)
    return run, await run.wait()


def edit_node(path: Path, node_id: str, **params: Any) -> None:
    """Change parameters of node `node_id` in the workflow file `path` (today's file differs from a run's)."""
    doc = json.loads(path.read_text())
    next(n for n in doc["nodes"] if n["id"] == node_id)["params"].update(params)
    path.write_text(json.dumps(doc))
