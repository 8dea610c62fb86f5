"""A small scripted ChatGateway and workflow builders for runtime tests (offline, deterministic)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.graph.model import Edge, Node, NodeUi, Workflow
from engine.llm.types import LLMRequest, LLMResponse

PLAN = {"tasks": [{"id": "t1", "task": "first part", "depends_on": []},
                  {"id": "t2", "task": "second part", "depends_on": []},
                  {"id": "t3", "task": "combine parts", "depends_on": ["t1", "t2"]}]}
Reply = str | LLMResponse | Exception


def default_reply(request: LLMRequest) -> Reply:
    meta = request.metadata
    role = meta.get("role")
    if role == "planner":
        return json.dumps(PLAN)
    if role == "critic":
        return json.dumps({"decision": "approve", "score": 0.9, "reasons": ["fine"], "claims": []})
    if role == "router":
        return str(meta["routes"][0])
    return f"done: {meta.get('task')}"


class FakeGateway:
    def __init__(self, reply: Callable[[LLMRequest], Reply] = default_reply, *, latency_s: float = 0.0,
                 tokens: tuple[int, int] = (10, 5), cost_usd: float = 0.0) -> None:
        self.reply, self.latency_s, self.tokens, self.cost_usd = reply, latency_s, tokens, cost_usd
        self.requests: list[LLMRequest] = []
        self.active = 0
        self.peak = 0

    def by_role(self, role: str) -> list[LLMRequest]:
        return [r for r in self.requests if r.metadata.get("role") == role]

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        self.requests.append(request)
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            if self.latency_s:
                await asyncio.sleep(self.latency_s)
            out = self.reply(request)
        finally:
            self.active -= 1
        if isinstance(out, Exception):
            try:
                raise out
            finally:  # this frame, kept by the error's traceback, must not hold the error (a cycle)
                del out
        if isinstance(out, LLMResponse):
            return out
        if on_delta:
            for word in out.split(" "):
                on_delta(word + " ")
        return LLMResponse(content=out, model=request.model, provider="fake", tokens_in=self.tokens[0],
                           tokens_out=self.tokens[1], cost_usd=self.cost_usd)


def build(nodes: list[tuple[str, str, dict[str, Any]]], edges: list[str], **settings: Any) -> Workflow:
    """A workflow from (id, role, params) and edges written "src.port->dst.port"."""
    wf = Workflow("test", id="wf-test")
    for index, (nid, role, params) in enumerate(nodes):
        wf.add_node(Node(nid, role, nid.title(), dict(params), NodeUi(x=index * 200.0)))
    for index, spec in enumerate(edges):
        src, dst = spec.split("->")
        (s, sp), (t, tp) = src.split("."), dst.split(".")
        wf.add_edge(Edge(f"e{index + 1}", s, sp, t, tp))
    for key, value in settings.items():
        if key in ("concurrency", "seed"):
            setattr(wf.settings, key, value)
        else:
            wf.settings.budget = replace(wf.settings.budget, **{key: value})
    return wf


def triad(**critic: Any) -> Workflow:
    return build(
        [("goal", "input", {"name": "goal", "default": "make tea"}), ("planner", "planner", {}),
         ("executor", "executor", {}), ("critic", "critic", {"max_rounds": 3, **critic}),
         ("result", "output", {"name": "result"})],
        ["goal.value->planner.goal", "planner.plan->executor.task", "executor.result->critic.subject",
         "critic.verdict->executor.feedback", "critic.approved->result.value"])


def chain(n: int, **settings: Any) -> Workflow:
    """input → x0 → … → x{n-1} → output: `n` executors in a row."""
    nodes = [("in", "input", {}), *((f"x{i}", "executor", {}) for i in range(n)), ("out", "output", {})]
    names = ["in", *(f"x{i}" for i in range(n))]
    edges = [f"{names[0]}.value->x0.task", *(f"x{i}.result->x{i + 1}.task" for i in range(n - 1)),
             f"x{n - 1}.result->out.value"]
    return build(nodes, edges, **settings)
