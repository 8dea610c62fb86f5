"""The contract form in the workflow file: round trip, located errors, migration, references checked by
validation, and the workflow hash."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.graph.format import (
    FORMAT_VERSION,
    dumps_workflow,
    loads_workflow,
    workflow_from_dict,
    workflow_hash,
)
from engine.graph.problems import WorkflowFileError
from engine.graph.validate import validate
from tests.engine.contracts.contract_runs import example, gated_tools_doc, with_contracts

EVERY_KIND = [
    {"kind": "reviewed_before_output", "name": "reviewed", "roles": ["executor"]},
    {"kind": "no_call_after_budget"},
    {"kind": "max_calls", "max_calls": 20, "nodes": ["solver"]},
    {"kind": "max_cost", "max_cost": 0.5},
    {"kind": "max_tokens", "max_tokens": 10000},
    {"kind": "approve_score", "min_score": 0.8, "roles": ["critic"]},
    {"kind": "gated_tool_writes", "tools": ["calculator"], "gates": ["gate"]},
    {"kind": "max_duration", "max_seconds": 30.0},
]


def load_error(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(WorkflowFileError) as info:
        loads_workflow(json.dumps(doc), source="w.triadic.json")
    return [p.message for p in info.value.problems]


def test_every_kind_round_trips_byte_identically() -> None:
    wf = workflow_from_dict(with_contracts(gated_tools_doc(), *EVERY_KIND))
    assert [c.kind for c in wf.contracts] == [c["kind"] for c in EVERY_KIND]
    text = dumps_workflow(wf)
    assert json.loads(text)["contracts"] == EVERY_KIND
    assert dumps_workflow(loads_workflow(text)) == text


@pytest.mark.parametrize(("contracts", "message"), [
    ([{"kind": "max_cost", "max_cost": "abc"}], 'contracts[0].max_cost: expected a number, not "abc"'),
    ([{"kind": "max_calls"}], "contracts[0].max_calls: required for a max_calls contract"),
    ([{"kind": "max_calls", "max_calls": 2.5}], "contracts[0].max_calls: expected a whole number, not 2.5"),
    ([{"kind": "max_tokens", "max_tokens": -1}], "contracts[0].max_tokens: expected a whole number of at least 0"),
    ([{"kind": "approve_score", "min_score": 1.5}], "contracts[0].min_score: expected a number of at least 0 and at most 1"),
    ([{"kind": "nope"}], "contracts[0].kind: unknown kind 'nope'; one of: reviewed_before_output"),
    ([{"max_calls": 1}], "contracts[0].kind: missing; one of:"),
    ([{"kind": "max_duration", "max_seconds": 5, "nodes": ["a"]}], "contracts[0].nodes: not a field of a max_duration"),
    ([{"kind": "gated_tool_writes"}], "contracts[0].tools: required: the names of the tools that write"),
    ([{"kind": "max_calls", "max_calls": 1, "roles": "executor"}], 'contracts[0].roles: expected a list of names'),
    ([{"kind": "max_calls", "max_calls": 1, "name": 3}], "contracts[0].name: expected a text"),
])
def test_a_malformed_contract_is_refused_with_its_location(contracts: list[Any], message: str) -> None:
    doc = with_contracts(example("triad"), {"kind": "no_call_after_budget"}, *contracts)
    messages = load_error(doc)
    located = message.replace("contracts[0]", "contracts[1]")
    assert any(m.startswith(located) for m in messages), messages


def test_every_malformed_field_is_reported_at_once() -> None:
    messages = load_error(with_contracts(example("triad"), {"kind": "max_cost", "max_cost": None},
                                         {"kind": "max_calls", "max_calls": "x"}, 7))
    assert [m.split(":")[0] for m in messages] == ["contracts[0].max_cost", "contracts[1].max_calls", "contracts[2]"]


def test_contracts_that_are_not_a_list_are_refused_by_the_schema_with_their_location() -> None:
    doc = example("triad")
    doc["contracts"] = {"kind": "max_calls"}
    assert any(m.startswith("At contracts:") for m in load_error(doc))


def test_a_version_1_file_migrates_and_is_saved_at_the_current_version() -> None:
    doc = example("triad")
    doc.pop("contracts")
    doc["version"] = 1
    wf = workflow_from_dict(doc)
    assert wf.contracts == ()
    assert json.loads(dumps_workflow(wf))["version"] == FORMAT_VERSION == 3
    assert "contracts" not in json.loads(dumps_workflow(wf))


def test_contracts_count_in_the_workflow_hash_only_when_there_are_some() -> None:
    doc = example("triad")
    doc.pop("contracts")
    plain = workflow_from_dict(doc)
    v1 = dict(doc, version=1)
    assert workflow_hash(workflow_from_dict(v1)) == workflow_hash(plain)  # hashes of old runs still match
    assert workflow_hash(workflow_from_dict(with_contracts(doc, {"kind": "no_call_after_budget"}))) != \
        workflow_hash(plain)


def test_validation_checks_the_nodes_roles_gates_and_tools_a_contract_names() -> None:
    doc = with_contracts(example("tools"),
                         {"kind": "max_calls", "max_calls": 1, "nodes": ["solver", "ghost"], "roles": ["wizard"]},
                         {"kind": "gated_tool_writes", "tools": ["calculator", "rm_rf"], "gates": ["solver"]})
    problems = {(p.code, p.severity, p.field) for p in validate(workflow_from_dict(doc))}
    assert ("contract_unknown_node", "error", "contracts[0].nodes") in problems
    assert ("contract_unknown_role", "error", "contracts[0].roles") in problems
    assert ("contract_bad_gate", "error", "contracts[1].gates") in problems
    assert ("contract_unknown_tool", "warning", "contracts[1].tools") in problems
    assert not any(p[0].startswith("contract") and "calculator" in str(p) for p in problems)
    assert not [p for p in validate(workflow_from_dict(with_contracts(gated_tools_doc(), *EVERY_KIND)))
                if p.code.startswith("contract")]
