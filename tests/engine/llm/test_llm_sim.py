"""The simulated provider through the Gateway (litellm custom provider) and through SimGateway."""

from __future__ import annotations

import json

import pytest

from engine.llm.gateway import Gateway
from engine.llm.retry import Backoff
from engine.llm.sim import SimConfig, SimGateway
from engine.llm.types import (
    BadRequestError,
    LLMRequest,
    LLMTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
)

GOAL = "Write a short report on solar panels. Compare cost and efficiency. Give a recommendation."
FAST = Backoff(base_s=0.0, cap_s=0.0)


def _req(role: str, model: str = "sim/default", **meta: object) -> LLMRequest:
    return LLMRequest(model=model, messages=[{"role": "user", "content": GOAL}],
                      metadata={"role": role, **meta}, seed=7)


@pytest.fixture
def gateway() -> Gateway:
    return Gateway(backoff=FAST)


@pytest.mark.asyncio
async def test_same_seed_messages_metadata_give_identical_replies(gateway: Gateway) -> None:
    first = await gateway.complete(_req("executor", task="t1"))
    second = await gateway.complete(_req("executor", task="t1"))
    other = await gateway.complete(_req("executor", task="t2"))
    assert first.content == second.content and first.tokens_out == second.tokens_out
    assert other.content != first.content


@pytest.mark.asyncio
async def test_planner_returns_a_valid_task_dag(gateway: Gateway) -> None:
    for seed in range(12):
        request = LLMRequest(model="sim/default", messages=[{"role": "user", "content": f"goal {seed}: {GOAL}"}],
                             metadata={"role": "planner"}, seed=seed)
        plan = json.loads((await gateway.complete(request)).content)
        tasks = plan["tasks"]
        assert 2 <= len(tasks) <= 6
        ids = [t["id"] for t in tasks]
        assert len(set(ids)) == len(ids)
        for index, task in enumerate(tasks):
            assert task["task"] and isinstance(task["depends_on"], list)
            assert all(dep in ids[:index] for dep in task["depends_on"])  # acyclic: only earlier tasks


@pytest.mark.asyncio
async def test_plan_has_dependent_and_parallel_tasks_for_a_multi_part_goal(gateway: Gateway) -> None:
    goal = "Find flights, book a hotel, reserve a restaurant and write the itinerary"
    request = LLMRequest(model="sim/default", messages=[{"role": "user", "content": goal}],
                         metadata={"role": "planner", "goal": goal}, seed=1)
    tasks = json.loads((await gateway.complete(request)).content)["tasks"]
    assert any(t["depends_on"] for t in tasks) and sum(not t["depends_on"] for t in tasks) >= 2
    assert tasks[0]["task"] == "Find flights"


@pytest.mark.asyncio
async def test_critic_verdicts_are_valid_and_approve_by_the_last_round(gateway: Gateway) -> None:
    decisions = []
    for seed in range(20):
        request = LLMRequest(model="sim/default", messages=[{"role": "user", "content": GOAL}], seed=seed,
                             metadata={"role": "critic", "round": 0, "max_rounds": 3})
        verdict = json.loads((await gateway.complete(request)).content)
        assert verdict["decision"] in ("approve", "revise", "reject")
        assert 0.0 <= verdict["score"] <= 1.0 and verdict["reasons"]
        assert all(isinstance(c["claim"], str) and isinstance(c["supported"], bool) for c in verdict["claims"])
        decisions.append(verdict["decision"])
        last = LLMRequest(model="sim/default", messages=[{"role": "user", "content": GOAL}], seed=seed,
                          metadata={"role": "critic", "round": 2, "max_rounds": 3})
        assert json.loads((await gateway.complete(last)).content)["decision"] == "approve"
    assert "revise" in decisions and "approve" in decisions


@pytest.mark.asyncio
async def test_router_picks_one_of_the_routes_and_roles_with_code_output(gateway: Gateway) -> None:
    routes = ["cheap", "strong", "human"]
    picked = {(await gateway.complete(_req("router", routes=routes, node=i))).content for i in range(15)}
    assert picked <= set(routes) and len(picked) >= 2
    sql = (await gateway.complete(_req("executor", output="sql"))).content
    assert sql.startswith("SELECT") and sql.rstrip().endswith(";")
    code = (await gateway.complete(_req("executor", output="python"))).content
    compile(code, "<sim>", "exec")
    vote = (await gateway.complete(_req("vote", sample=1))).content
    assert vote.startswith("Answer:")


@pytest.mark.asyncio
async def test_streaming_deltas_rebuild_the_content_and_count_real_tokens(gateway: Gateway) -> None:
    from engine.llm.tokens import count_messages, count_text

    deltas: list[str] = []
    request = _req("executor", task="Draft the report")
    response = await gateway.complete(request, deltas.append)
    assert len(deltas) > 3 and "".join(deltas) == response.content
    assert response.tokens_in == count_messages(request.messages)
    assert response.tokens_out == count_text(response.content) > 0


@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "error"), [("rate_limit", RateLimitedError),
                                             ("server_error", ProviderUnavailableError),
                                             ("timeout", LLMTimeoutError)])
async def test_injected_faults_surface_as_typed_errors(gateway: Gateway, kind: str, error: type) -> None:
    request = _req("executor", sim={"fail_first": 5, "fail_kind": kind})
    with pytest.raises(error) as caught:
        await gateway.complete(request)
    assert caught.value.attempts == 3 and caught.value.provider == "sim"
    with pytest.raises(error):
        await SimGateway(backoff=FAST).complete(request)


@pytest.mark.asyncio
async def test_fail_first_n_then_retry_succeeds_and_probability_faults_are_seeded(gateway: Gateway) -> None:
    response = await gateway.complete(_req("executor", sim={"fail_first": 2}))
    assert response.content
    outcomes = []
    for node in range(20):
        request = _req("executor", node=node, sim={"fault_rate": 0.5, "faults": ["server_error"]})
        request = LLMRequest(**{**request.to_record(), "retries": 0})  # type: ignore[arg-type]
        try:
            await gateway.complete(request)
            outcomes.append(True)
        except ProviderUnavailableError:
            outcomes.append(False)
    assert True in outcomes and False in outcomes
    again = []
    for node in range(20):
        request = _req("executor", node=node, sim={"fault_rate": 0.5, "faults": ["server_error"]})
        request = LLMRequest(**{**request.to_record(), "retries": 0})  # type: ignore[arg-type]
        try:
            await SimGateway().complete(request)
            again.append(True)
        except ProviderUnavailableError:
            again.append(False)
    assert again == outcomes


@pytest.mark.asyncio
async def test_malformed_fault_breaks_structured_output(gateway: Gateway) -> None:
    content = (await gateway.complete(_req("planner", sim={"fail_first": 1, "fail_kind": "malformed"}))).content
    with pytest.raises(json.JSONDecodeError):
        json.loads(content)
    repaired = await gateway.complete(_req("planner", repair=True, sim={"fail_first": 1, "fail_kind": "malformed"}))
    assert json.loads(repaired.content)["tasks"]


@pytest.mark.asyncio
async def test_price_as_costs_what_litellm_charges_for_that_model(gateway: Gateway) -> None:
    import litellm

    free = await gateway.complete(_req("executor"))
    assert free.cost_usd == 0.0 and free.priced
    for request in (_req("executor", model="sim/gpt-4o-mini"), _req("executor", sim={"price_as": "gpt-4o-mini"})):
        response = await gateway.complete(request)
        cost_in, cost_out = litellm.cost_per_token(model="gpt-4o-mini", prompt_tokens=response.tokens_in,
                                                   completion_tokens=response.tokens_out)
        assert response.cost_usd > 0 and response.cost_usd == pytest.approx(cost_in + cost_out)
        direct = await SimGateway().complete(request)
        assert direct.cost_usd == pytest.approx(response.cost_usd)


@pytest.mark.asyncio
async def test_sim_gateway_gives_the_same_replies_as_the_litellm_path(gateway: Gateway) -> None:
    for role in ("planner", "executor", "critic"):
        request = _req(role, model="sim/gpt-4o-mini", round=0, max_rounds=2)
        through_litellm = await gateway.complete(request)
        direct = await SimGateway().complete(request)
        assert (direct.content, direct.tokens_in, direct.tokens_out) == (
            through_litellm.content, through_litellm.tokens_in, through_litellm.tokens_out)


@pytest.mark.asyncio
async def test_latency_settings_are_applied_and_time_out(gateway: Gateway) -> None:
    response = await gateway.complete(_req("executor", sim={"latency_ms": 120}))
    assert response.latency_s >= 0.1
    request = LLMRequest(model="sim/default", messages=[{"role": "user", "content": GOAL}], timeout_s=0.05,
                         retries=0, metadata={"role": "executor", "sim": {"latency_ms": 2000}})
    with pytest.raises(LLMTimeoutError):
        await gateway.complete(request)
    with pytest.raises(LLMTimeoutError):
        await SimGateway().complete(request)


@pytest.mark.asyncio
async def test_bad_sim_settings_are_rejected_with_the_setting_named(gateway: Gateway) -> None:
    with pytest.raises(BadRequestError, match="latncy_ms"):
        await gateway.complete(_req("executor", sim={"latncy_ms": 5}))
    with pytest.raises(BadRequestError, match="fault"):
        await gateway.complete(_req("executor", sim={"faults": ["meteor"]}))
    with pytest.raises(ValueError, match="fault_rate"):
        SimConfig(fault_rate=2.0)
    with pytest.raises(BadRequestError, match="sim/"):
        await SimGateway().complete(LLMRequest(model="openai/gpt-4o", messages=[]))


TOOLS = [{"type": "function", "function": {
    "name": "demo__add", "description": "Add two integers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                   "required": ["a", "b"]}}},
    {"type": "function", "function": {"name": "word_count", "description": "Count words.",
                                      "parameters": {"type": "object", "properties": {"text": {"type": "string"}},
                                                     "required": ["text"]}}}]


@pytest.mark.asyncio
@pytest.mark.parametrize("stream", [True, False])
async def test_tool_call_on_the_first_turn_then_an_answer_using_the_result(gateway: Gateway, stream: bool) -> None:
    def request(messages: list[dict[str, object]], **sim: object) -> LLMRequest:
        return LLMRequest(model="sim/default", messages=messages, tools=TOOLS, stream=stream, seed=3,
                          metadata={"role": "executor", "task": "add", "sim": {"call_tools": True, **sim}})

    first_turn = [{"role": "user", "content": GOAL}]
    for gw in (gateway, SimGateway()):
        deltas: list[str] = []
        call = await gw.complete(request(first_turn), deltas.append)
        assert call.content == "" and deltas == [] and call.finish_reason == "tool_calls" and call.tokens_out > 0
        (tool_call,) = call.tool_calls
        assert tool_call["function"]["name"] == "demo__add" and tool_call["id"].startswith("call_")
        arguments = json.loads(tool_call["function"]["arguments"])
        assert set(arguments) == {"a", "b"} and all(isinstance(v, int) for v in arguments.values())
        answered = [*first_turn, {"role": "assistant", "content": "", "tool_calls": call.tool_calls},
                    {"role": "tool", "tool_call_id": tool_call["id"], "content": '{"result": 42}'}]
        final = await gw.complete(request(answered))
        assert not final.tool_calls and final.content.endswith('Tool demo__add returned: {"result": 42}')
        chosen = await gw.complete(request(first_turn, tool="word_count", tool_arguments={"text": "a b"}))
        assert chosen.tool_calls[0]["function"] == {"name": "word_count", "arguments": '{"text": "a b"}'}
        with pytest.raises(BadRequestError, match="not among the tools offered"):
            await gw.complete(request(first_turn, tool="nope"))
    plain = await SimGateway().complete(LLMRequest(model="sim/default", messages=first_turn, tools=TOOLS,
                                                   metadata={"role": "executor"}))
    assert plain.content and not plain.tool_calls  # tools offered, but the call was not asked for


@pytest.mark.parametrize("words", [1, 3, 8])
def test_streamed_deltas_count_about_the_replys_tokens(words: int) -> None:
    from engine.llm.sim.responder import SimReply
    from engine.llm.tokens import count_text

    text = ("Result for: Collect examples for \"how do heat pumps compare\"\n"
            "The numbers were checked against a second method and match.\n  Edge cases were listed.\n")
    chunks = SimReply(text, 0, 0, None).chunks(words)
    assert "".join(chunks) == text and all(not c[-1:].isspace() for c in chunks[:-1])  # spaces lead
    streamed = sum(count_text(chunk, "gpt-4o-mini") for chunk in chunks)
    whole = count_text(text, "gpt-4o-mini")
    assert whole <= streamed <= whole * 1.1  # a live token budget sees what the call will be billed
