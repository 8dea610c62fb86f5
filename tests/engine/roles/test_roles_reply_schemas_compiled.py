"""The compiled check of plans and verdicts (fastjsonschema) answers as jsonschema does, on any JSON."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.roles.reply_schemas import PLAN_SCHEMA, VERDICT_SCHEMA, schema_problems

_SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.sampled_from(
    ["", " ", "approve", "revise", "reject", "Approve", "t1", "task"])
_KEYS = st.sampled_from(["decision", "score", "reasons", "claims", "tasks", "task", "id", "depends_on", "goal"])
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
                     max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(_JSON)
def test_the_compiled_check_agrees_with_jsonschema(value: Any) -> None:
    for schema in (PLAN_SCHEMA, VERDICT_SCHEMA):
        assert (schema_problems(value, schema) == []) == Draft202012Validator(schema).is_valid(value), (schema["title"],
                                                                                                    value)


def test_a_valid_verdict_is_not_walked_by_jsonschema(monkeypatch: Any) -> None:
    import jsonschema

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("jsonschema walked a valid verdict")

    monkeypatch.setattr(jsonschema, "Draft202012Validator", refuse)
    assert schema_problems({"decision": "approve", "score": 0.9, "reasons": ["ok"], "claims": []}, VERDICT_SCHEMA) == []
