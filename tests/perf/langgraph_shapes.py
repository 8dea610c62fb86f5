"""The peer of the engine benchmark: LangGraph running the same `Shape` (engine.graph.shapes) with the
same zero-latency model, one async node per executor or critic.

A node with one upstream node gets a plain edge; a node fed by several waits for all of them (LangGraph's
join edge, `add_edge([a, b], c)`), as the engine's node waits for its inputs (an edge from the input
beside others is left out: LangGraph cannot join on its start, and the others come after it anyway). A critic parses the
model's verdict and routes on it: approve → the node its approved port feeds, otherwise back to its
executor (its feedback edge). Executors write the state's `value` (concurrent writes keep the last).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

from engine.graph.shapes import Shape
from engine.llm.types import LLMRequest
from tests.perf.shape_model import ShapeModel


def _last(old: str, new: str) -> str:
    return new


class State(TypedDict, total=False):
    value: Annotated[str, _last]
    decision: Annotated[str, _last]


def shape_graph(shape: Shape, model: ShapeModel) -> Any:
    """The uncompiled LangGraph `StateGraph` of `shape` (compile it with or without a checkpointer)."""
    from langgraph.graph import END, START, StateGraph

    graph = StateGraph(State)
    critics = set(shape.critics)
    for nid in shape.executors:
        graph.add_node(nid, _executor(model))
    for nid in shape.critics:
        graph.add_node(nid, _critic(model))
    sources: dict[str, list[str]] = defaultdict(list)
    routes: dict[str, dict[str, str]] = defaultdict(dict)
    for source, source_port, target, _target_port in shape.wires:
        target = END if target == "out" else target
        if source in critics:
            routes[source]["approve" if source_port == "approved" else "revise"] = target
        else:
            sources[target].append(START if source == "in" else source)
    for target, froms in sources.items():
        unique = list(dict.fromkeys(froms))
        if len(unique) > 1 and START in unique:  # a join also fed by the input: its other inputs come later
            unique.remove(START)
        graph.add_edge(unique[0] if len(unique) == 1 else unique, target)
    for critic, route in routes.items():
        graph.add_conditional_edges(critic, _router(route), list(route.values()))
    return graph


def _executor(model: ShapeModel) -> Callable[[State], Any]:
    async def run(state: State) -> dict[str, Any]:
        prompt = state.get("value", "go")
        if state.get("decision") == "revise":
            prompt += "\n\nA reviewer judged the previous attempt: revise. Produce an improved version."
        reply = await model.complete(LLMRequest("sim/default", [{"role": "user", "content": prompt}]), _drop)
        return {"value": reply.content, "decision": ""}

    return run


def _critic(model: ShapeModel) -> Callable[[State], Any]:
    async def run(state: State) -> dict[str, Any]:
        prompt = f"Review this artifact.\n\nArtifact:\n{state.get('value', '')}"
        reply = await model.complete(LLMRequest("sim/default", [{"role": "user", "content": prompt}]), _drop)
        return {"decision": str(json.loads(reply.content)["decision"])}

    return run


def _router(route: dict[str, str]) -> Callable[[State], str]:
    def choose(state: State) -> str:
        return route["approve"] if state.get("decision") == "approve" else route["revise"]

    return choose


def _drop(text: str) -> None:
    return None
