"""Format version 3 renames the two fields called `max_turns` (issue 17): the run budget's is
`max_model_calls`, an executor's is `max_tool_turns`. A version-2 file opens, saves in the new form,
keeps its workflow hash and runs the same; a clipboard fragment copied before the rename pastes too.

`tools_v2.triadic.json` is the tools example as version 2 wrote it."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.graph.format import (
    dumps_workflow,
    load_workflow,
    loads_workflow,
    workflow_from_dict,
    workflow_hash,
)
from engine.graph.fragment import paste_fragment
from engine.graph.model import Workflow
from engine.graph.validate import validate
from engine.llm.sim import SimGateway
from engine.runtime import Run, RunResult, compile_workflow

V2_FILE = Path(__file__).with_name("tools_v2.triadic.json")
EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
# `workflow_hash` of each example as the code before the rename computed it (format version 2)
HASH_BEFORE_V3 = {
    "code_fix": "5a6e46aa901651c60eff5c9e259788845727876fdb662c56716c3fb18d366251",
    "hanoi": "e571878d590f2a32b1a900115806e81f7305b9f9326e77b9f4042e3bbd7f7524",
    "research": "b3b398315b59fdf68799e33717f95ba5b0d10d9b478832b9844de45938fafc6a",
    "text_to_sql": "e834db10b7021c7a2490ae3ca25c9e25d81e8c848b86883608b458c6448fca2d",
    "tools": "cdc97fc0f6f3a9d98cc4eef54c63120e2ccd087cfc769671a08c528288519870",
    "triad": "6a83f1a61a244b7b41c7f6777594068ed58bca16f7d0c24147c7d47fe25f6703",
}


def v2_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(V2_FILE.read_text(encoding="utf-8"))
    assert doc["version"] == 2 and doc["settings"]["budget"]["max_turns"] == 20
    return doc


def test_a_v2_file_opens_with_the_new_names() -> None:
    wf = load_workflow(V2_FILE)
    assert wf.settings.budget.max_model_calls == 20
    solver = wf.nodes["solver"].params
    assert solver["max_tool_turns"] == 4 and "max_turns" not in solver
    assert [p for p in validate(wf) if p.severity == "error"] == []


def test_it_saves_in_the_new_form_and_keeps_its_hash() -> None:
    wf = load_workflow(V2_FILE)
    text = dumps_workflow(wf)
    saved = json.loads(text)
    assert saved["version"] == 3 and "max_turns" not in text
    assert saved["settings"]["budget"]["max_model_calls"] == 20
    assert next(n for n in saved["nodes"] if n["id"] == "solver")["params"]["max_tool_turns"] == 4
    assert workflow_hash(loads_workflow(text)) == workflow_hash(wf) == HASH_BEFORE_V3["tools"]


@pytest.mark.parametrize("name", sorted(HASH_BEFORE_V3))
def test_every_example_keeps_the_hash_it_had_before_the_rename(name: str) -> None:
    assert workflow_hash(load_workflow(EXAMPLES / f"{name}.triadic.json")) == HASH_BEFORE_V3[name]


def test_only_the_executor_s_param_is_renamed() -> None:
    doc = v2_doc()
    doc["nodes"].append({"id": "other", "role": "tool", "params": {"max_turns": 3}})
    wf = workflow_from_dict(doc)
    assert wf.nodes["other"].params == {"max_turns": 3}  # not a field of this role: validation names it


async def _run(wf: Workflow) -> RunResult:
    return await Run(compile_workflow(wf, base_dir=EXAMPLES), gateway=SimGateway()).wait()


@pytest.mark.asyncio
async def test_a_v2_file_and_its_v3_save_run_the_same() -> None:
    old = workflow_from_dict(v2_doc())
    new = loads_workflow(dumps_workflow(old))
    first, second = await _run(old), await _run(new)
    assert first.status == second.status == "succeeded"
    assert first.outputs == second.outputs and (first.tokens_in, first.tokens_out) == (second.tokens_in,
                                                                                     second.tokens_out)


@pytest.mark.asyncio
async def test_the_old_run_max_turns_is_enforced_as_the_model_call_limit() -> None:
    doc = v2_doc()
    doc["settings"]["budget"]["max_turns"] = 1  # the solver needs 2 model calls (a tool call, then its answer)
    result = await _run(workflow_from_dict(doc))
    assert result.status == "budget_exceeded"
    assert result.reason == "run model_calls budget exceeded at node solver: 2 calls > limit 1 calls"


@pytest.mark.asyncio
async def test_the_old_executor_max_turns_is_enforced_as_its_tool_turns() -> None:
    doc = v2_doc()
    next(n for n in doc["nodes"] if n["id"] == "solver")["params"]["max_turns"] = 1
    result = await _run(workflow_from_dict(doc))
    assert result.status == "failed" and "max_tool_turns=1" in result.reason


def test_a_fragment_copied_before_the_rename_pastes_with_the_new_name() -> None:
    solver = copy.deepcopy(next(n for n in v2_doc()["nodes"] if n["id"] == "solver"))
    fragment = {"format": "triadic.fragment", "version": 1, "nodes": [solver], "edges": []}
    (pasted,), _ = paste_fragment(Workflow(), fragment)
    assert pasted.params["max_tool_turns"] == 4 and "max_turns" not in pasted.params
