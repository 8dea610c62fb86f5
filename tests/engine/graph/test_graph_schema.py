"""The JSON Schema: the published copy matches, and the fast check agrees with jsonschema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.graph.fast_schema_check import compile_schema
from engine.graph.format import dumps_workflow
from engine.graph.generate import generate_workflow
from engine.graph.schema import WORKFLOW_SCHEMA, main, published_schema_path, schema_text

VALID: dict[str, Any] = json.loads(dumps_workflow(generate_workflow(12, seed=1)))
FAST = compile_schema(WORKFLOW_SCHEMA)
SLOW = Draft202012Validator(WORKFLOW_SCHEMA)


def test_published_schema_is_identical_to_the_code() -> None:
    path = published_schema_path()
    assert json.loads(path.read_text(encoding="utf-8")) == WORKFLOW_SCHEMA
    assert path.read_text(encoding="utf-8") == schema_text()


def test_schema_module_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    assert main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == schema_text()


def test_schema_is_a_valid_draft_2020_12_schema_and_accepts_saved_files() -> None:
    Draft202012Validator.check_schema(WORKFLOW_SCHEMA)
    assert SLOW.is_valid(VALID) and FAST(VALID)


def test_fast_check_follows_jsonschema_on_numbers_and_booleans() -> None:
    for version in (1, 1.0, True, "1", 2):
        doc = dict(VALID, version=version)
        assert FAST(doc) == SLOW.is_valid(doc), version
    for seed in (3, 3.0, 3.5, False, 2**70):
        doc = dict(VALID, settings={"seed": seed})
        assert FAST(doc) == SLOW.is_valid(doc), seed


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 2**64) | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(VALID)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), _JSON, st.sampled_from(["replace", "add_key", "delete"]))
def test_fast_check_agrees_with_jsonschema_on_mutated_documents(path: tuple[Any, ...], value: Any, how: str) -> None:
    doc = json.loads(json.dumps(VALID))
    if not path:
        doc = value
    else:
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        if how == "replace":
            parent[path[-1]] = value
        elif how == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]]["zz"] = value
    assert FAST(doc) == SLOW.is_valid(doc)
