"""Helpers of the contract tests: run a bundled example (or a changed copy) on the simulated provider with
given contracts, and read what its `ContractsChecked` event says."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engine import events as ev
from engine.contracts import ContractResult, results_from_event
from engine.graph.format import workflow_from_dict
from engine.llm.sim import SimGateway
from engine.runtime import Run, compile_workflow
from engine.runtime.control import HumanPolicy

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def example(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES / f"{name}.triadic.json").read_text(encoding="utf-8"))
    return doc


def with_contracts(doc: dict[str, Any], *contracts: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["contracts"] = list(contracts)
    return out


def gated_tools_doc() -> dict[str, Any]:
    """The tools example with a human gate between the question and the solver that calls the calculator."""
    doc = example("tools")
    doc["nodes"].append({"id": "gate", "role": "human_gate", "title": "Allow tools?", "params": {}})
    feeds_solver = next(e for e in doc["edges"] if e["target"] == "solver")
    doc["edges"].remove(feeds_solver)
    doc["edges"] += [
        {"id": "g1", "source": feeds_solver["source"], "source_port": feeds_solver["source_port"],
         "target": "gate", "target_port": "subject"},
        {"id": "g2", "source": "gate", "source_port": "approved", "target": "solver",
         "target_port": feeds_solver["target_port"]},
    ]
    return doc


async def run_events(doc: dict[str, Any], **run_kw: Any) -> list[ev.Event]:
    """Every event of a run of `doc` on the simulated provider (human gates approved)."""
    wf = workflow_from_dict(doc)
    run = Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=SimGateway(), human=HumanPolicy("approve"),
              **run_kw)
    await run.wait()
    return list(run.hub.history)


def checked(events: list[ev.Event]) -> list[ContractResult]:
    """The results the run recorded: its one `ContractsChecked` event, right before `RunFinished`."""
    found = [e for e in events if isinstance(e, ev.ContractsChecked)]
    assert len(found) == 1
    assert isinstance(events[-1], ev.RunFinished) and events[-2] is found[0]
    return results_from_event(found[0])


async def check_one(doc: dict[str, Any], contract: dict[str, Any]) -> tuple[ContractResult, list[ev.Event]]:
    events = await run_events(with_contracts(doc, contract))
    (result,) = checked(events)
    return result, events


def event_at(events: list[ev.Event], seq: int | None) -> ev.Event:
    return next(e for e in events if e.seq == seq)
