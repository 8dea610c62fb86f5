"""The run's concurrency slots behave as an asyncio.Semaphore; a node's setup is what its params say."""

from __future__ import annotations

import asyncio

import pytest

from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.runtime import compile_workflow
from engine.runtime.nodesetup import call_settings
from engine.runtime.slots import Slots


@pytest.mark.asyncio
async def test_free_slots_are_taken_without_waiting_and_never_more_than_the_count() -> None:
    slots = Slots(2)
    assert slots.try_take() and slots.try_take()
    assert not slots.try_take()
    slots.release()
    assert slots.try_take()


@pytest.mark.asyncio
async def test_waiters_are_served_in_order_and_a_cancelled_one_passes_its_slot_on() -> None:
    slots = Slots(1)
    await slots.take()
    order: list[str] = []

    async def worker(name: str) -> None:
        async with slots:
            order.append(name)
            await asyncio.sleep(0)

    first, second, third = (asyncio.ensure_future(worker(n)) for n in ("a", "b", "c"))
    await asyncio.sleep(0)
    assert not slots.try_take()  # nobody jumps the queue while others wait
    slots.release()  # hands the slot to "a"
    second.cancel()  # "b" gives up in line: its turn goes to "c"
    await asyncio.gather(first, third)
    assert second.cancelled() and order == ["a", "c"]
    assert slots.try_take() and not slots.try_take()  # back to one free slot


@pytest.mark.asyncio
async def test_a_waiter_cancelled_after_it_was_handed_a_slot_passes_it_on() -> None:
    slots = Slots(1)
    await slots.take()
    first, second = asyncio.ensure_future(slots.take()), asyncio.ensure_future(slots.take())
    await asyncio.sleep(0)
    slots.release()  # "first" is handed the slot ...
    first.cancel()  # ... but is cancelled before it runs: "second" gets it
    await asyncio.sleep(0)
    await second
    assert first.cancelled() and not slots.try_take()
    slots.release()
    assert slots.try_take()


def _workflow(**params: object) -> Workflow:
    wf = Workflow("w", id="w")
    wf.add_node(Node("in", "input", params={"name": "goal"}, ui=NodeUi()))
    wf.add_node(Node("x", "executor", params=dict(params), ui=NodeUi()))
    wf.add_node(Node("out", "output", params={"name": "result"}, ui=NodeUi()))
    wf.add_edge(Edge("e1", "in", "value", "x", "task"))
    wf.add_edge(Edge("e2", "x", "result", "out", "value"))
    return wf


def test_a_node_setup_is_its_params_read_as_the_runtime_reads_them() -> None:
    plan = compile_workflow(_workflow(retries=1, temperature=0.5, max_tokens_budget=100, deadline_s=2.5,
                                      system_prompt="be brief", sim={"output": "sql", "latency_ms": 3}))
    node = plan.nodes["x"]
    setup = node.setup
    assert setup.model == "sim/default" and setup.system_prompt == "be brief"
    assert setup.required == ("task",) and setup.multiple == frozenset({"context"}) and setup.waits_for == 1
    assert [e.id for e in setup.forward] == ["e2"] and setup.loops == () and setup.deadline_s == 2.5
    assert setup.call == call_settings(node)
    assert setup.call is not None and setup.call.retries == 1 and setup.call.temperature == 0.5
    assert dict(setup.call.sim) == {"latency_ms": 3} and setup.call.sim_output == "sql"
    assert setup.call.max_tokens == 100 and setup.call.limited
    assert plan.waits == {"in": 0, "x": 1, "out": 1}


def test_a_value_that_does_not_convert_is_left_to_fail_at_run_time() -> None:
    wf = _workflow()
    wf.set_param("out", "deadline_s", "soon")  # a param the output role does not declare: only a warning
    setup = compile_workflow(wf).nodes["out"].setup
    assert setup.deadline_s is None and setup.call is None


def test_equal_call_params_share_settings_but_every_node_owns_its_param_values() -> None:
    wf = _workflow()
    wf.add_node(Node("y", "executor", params={"sim": {"latency_ms": 1}}, ui=NodeUi()))
    wf.add_edge(Edge("e3", "in", "value", "y", "task"))
    plan = compile_workflow(wf)
    x, y = plan.nodes["x"], plan.nodes["y"]
    assert x.setup.call is compile_workflow(_workflow()).nodes["x"].setup.call  # role defaults: one object
    assert y.setup.call is not None and y.setup.call is not x.setup.call and dict(y.setup.call.sim) == {"latency_ms": 1}
    assert x.params["tools"] == [] and x.params["tools"] is not compile_workflow(wf).nodes["x"].params["tools"]


def test_nodes_that_differ_only_in_their_server_address_do_not_share_settings() -> None:
    local = compile_workflow(_workflow(api_base=" http://127.0.0.1:8000/v1 ")).nodes["x"].setup.call
    default = compile_workflow(_workflow()).nodes["x"].setup.call
    assert local is not None and local.api_base == "http://127.0.0.1:8000/v1"
    assert default is not None and default.api_base is None
