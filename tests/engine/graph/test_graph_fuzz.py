"""Property tests: loading anything returns a Workflow or raises WorkflowFileError, nothing else."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.graph.format import WorkflowFileError, dumps_workflow, loads_workflow, workflow_from_dict
from engine.graph.generate import generate_workflow
from engine.graph.model import Workflow

VALID_TEXT = dumps_workflow(generate_workflow(8, seed=2))
VALID: dict[str, Any] = json.loads(VALID_TEXT)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=12)


def _load_text(text: str | bytes) -> None:
    try:
        result = loads_workflow(text, source="fuzz")
    except WorkflowFileError as exc:
        assert exc.problems and str(exc)
    else:
        assert isinstance(result, Workflow)
        assert loads_workflow(dumps_workflow(result)).nodes == result.nodes


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    _load_text(text)


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(raw: bytes) -> None:
    _load_text(raw)


@FUZZ
@given(_JSON)
def test_arbitrary_json_values(value: Any) -> None:
    _load_text(json.dumps(value))
    try:
        workflow_from_dict(value)
    except WorkflowFileError as exc:
        assert exc.problems


_KEYS = ["format", "version", "id", "name", "description", "settings", "nodes", "edges", "ui"]


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(_KEYS), st.integers(0, 20), st.sampled_from(
    ["id", "role", "title", "params", "ui", "source", "source_port", "target", "target_port", "x", "budget"]),
    _JSON), max_size=4))
def test_mutated_valid_documents(mutations: list[tuple[str, int, str, Any]]) -> None:
    doc = json.loads(VALID_TEXT)
    for key, index, inner, value in mutations:
        target = doc.get(key)
        if isinstance(target, list) and target:
            item = target[index % len(target)]
            if isinstance(item, dict):
                item[inner] = value
        elif isinstance(target, dict):
            target[inner] = value
        else:
            doc[key] = value
    _load_text(json.dumps(doc))


@FUZZ
@given(st.integers(0, len(VALID_TEXT) - 1), st.integers(1, 40), st.text(max_size=6))
def test_corrupted_valid_text(start: int, length: int, insert: str) -> None:
    _load_text(VALID_TEXT[:start] + insert + VALID_TEXT[start + length:])


V0_TEXT = json.dumps({"nodes": [{"id": "a", "type": "input", "pos": [0, 1]}, {"id": "b", "type": "output", "pos": [1, 2]}],
                      "edges": [{"from": "a.value", "to": "b.value"}]})


@FUZZ
@given(st.sampled_from(["nodes", "edges", "version", "name"]), st.integers(0, 3),
       st.sampled_from(["id", "type", "pos", "from", "to", "color", "role"]), _JSON)
def test_mutated_version_0_documents(key: str, index: int, inner: str, value: Any) -> None:
    doc = json.loads(V0_TEXT)
    target = doc.get(key)
    if isinstance(target, list) and target and isinstance(target[index % len(target)], dict):
        target[index % len(target)][inner] = value
    else:
        doc[key] = value
    _load_text(json.dumps(doc))
