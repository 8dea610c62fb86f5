"""Cross-model review: a critic with `require_other_family` must not share its author's provider family.

The author of what a critic judges is found by following its `subject` input upstream through the
nodes that only pass a value on (a router's routes, a human gate's approved subject, a memory
node's value) to the nodes that wrote it with a model; nodes that compute without a model (input,
tool, verifier, sub-graph) are not authors. `overrides` (role → model, as `triadic run
--model-override` gives them) replace the models the workflow names.

Invariant: read-only; one error per (critic, author) pair, on the critic's `params.model`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from engine.graph.families import model_family
from engine.graph.model import Node, Workflow
from engine.graph.naming import describe_node, spec_for
from engine.graph.problems import Problem, error

# role → the input port whose value the node passes on unchanged (or as edited by a person)
PASS_THROUGH: dict[str, str] = {"router": "value", "human_gate": "subject", "memory": "value"}


def family_problems(wf: Workflow, overrides: Mapping[str, str] | None = None) -> list[Problem]:
    """Critics with `require_other_family` whose model shares an author's provider family."""
    overrides = overrides or {}
    found: list[Problem] = []
    for node in wf.nodes.values():
        if node.role != "critic" or not node.param("require_other_family"):
            continue
        judge = overrides.get("critic") or str(node.param("model"))
        for author, via in _authors(wf, node.id, "subject"):
            written = overrides.get(author.role) or str(author.param("model"))
            if model_family(judge) != model_family(written):
                continue
            through = f" (through {', '.join(describe_node(v) for v in via)})" if via else ""
            found.append(error(
                "same_model_family",
                f"Critic '{node.title or node.id}' ({node.id}) must use a model from another provider "
                f"family than its author '{author.title or author.id}' ({author.id}){through}: both "
                f"{judge!r} and {written!r} are {model_family(judge)!r} models; pick a model of another "
                f"family for the critic, or turn off 'require other family'",
                node_id=node.id, field="params.model"))
    return found


def _authors(wf: Workflow, node_id: str, port: str) -> Iterator[tuple[Node, list[Node]]]:
    """The model-using nodes whose output reaches `node_id`'s `port`, each with the pass-through
    nodes on the way (nearest last); each author once."""
    seen: set[str] = set()
    stack: list[tuple[str, str, list[Node]]] = [(node_id, port, [])]
    while stack:
        target, target_port, via = stack.pop()
        for edge in wf.incoming(target):
            source = wf.node(edge.source)
            if edge.target_port != target_port or source is None or source.id in seen:
                continue
            seen.add(source.id)
            if source.role in PASS_THROUGH:
                stack.append((source.id, PASS_THROUGH[source.role], [source, *via]))
                continue
            spec = spec_for(source.role)
            if spec is not None and spec.uses_llm:
                yield source, via
