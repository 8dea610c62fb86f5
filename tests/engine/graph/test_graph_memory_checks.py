"""A gated memory write with nothing on its `gate` input can never be admitted: a warning says so.

Invariants under test: a writing or appending memory node with `gated` true and no edge into its
`gate` port gets one warning (code `memory_gate_unconnected`, on `inputs.gate`) that names the node
and what to connect; a connected gate, an ungated node, or a reading node gets none; an edge from
an unknown node (reported as dangling elsewhere) does not count as a gate.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.graph.memory_checks import memory_problems
from engine.graph.model import Edge, Workflow
from tests.engine.runtime.fakes import build


def memory(params: dict[str, Any], *, gate: bool = False) -> Workflow:
    edges = ["in.value->mem.value", "mem.value->out.value"]
    nodes = [("in", "input", {}), ("mem", "memory", params), ("out", "output", {})]
    if gate:
        nodes.append(("c", "critic", {}))
        edges += ["in.value->c.subject", "c.verdict->mem.gate"]
    return build(nodes, edges)


@pytest.mark.parametrize("mode", ["write", "append"])
def test_a_gated_write_with_no_gate_edge_is_a_warning_naming_what_to_connect(mode: str) -> None:
    wf = memory({"gated": True, "mode": mode})
    [problem] = memory_problems(wf)
    assert (problem.severity, problem.code) == ("warning", "memory_gate_unconnected")
    assert (problem.node_id, problem.field) == ("mem", "inputs.gate")
    assert problem.message == (
        "Memory 'Mem' (mem) is gated but nothing is connected to its 'gate' input, so it can never admit a "
        "write: connect the verdict of a Critic, Verifier or Human gate to its gate input, or turn off 'gated'.")


def test_the_default_mode_is_a_write_and_is_checked() -> None:
    assert [p.node_id for p in memory_problems(memory({"gated": True}))] == ["mem"]


@pytest.mark.parametrize("params", [{"gated": False}, {}, {"gated": True, "mode": "read"}])
def test_ungated_or_reading_memory_needs_no_gate(params: dict[str, Any]) -> None:
    assert memory_problems(memory(params)) == []


def test_a_connected_gate_is_fine_and_an_edge_from_an_unknown_node_is_not_a_gate() -> None:
    assert memory_problems(memory({"gated": True}, gate=True)) == []
    wf = memory({"gated": True})
    wf.add_edge(Edge("ghost", "gone", "verdict", "mem", "gate"))
    assert [p.code for p in memory_problems(wf)] == ["memory_gate_unconnected"]


def test_validation_shows_the_unconnected_gate() -> None:
    from engine.graph.validate import validate
    from tests.engine.runtime.fakes import build

    wf = build([("in", "input", {}), ("mem", "memory", {"memory": "notes", "mode": "write", "gated": True}),
                ("o", "output", {})], ["in.value->mem.value", "mem.value->o.value"])
    assert [p.code for p in validate(wf) if p.code == "memory_gate_unconnected"] == ["memory_gate_unconnected"]
