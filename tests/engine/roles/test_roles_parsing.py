from __future__ import annotations

import pytest

from engine.roles.expr import ExpressionError, evaluate
from engine.roles.parsing import parse_plan, parse_verdict
from engine.roles.text import extract_json, render


def test_plan_is_made_a_dag_with_unique_ids_and_capped() -> None:
    text = ('Here is the plan:\n```json\n{"tasks": [{"id": "a", "task": "x", "depends_on": ["b"]},'
            '{"id": "b", "task": "y", "depends_on": ["a", "zzz"]}, {"id": "b", "task": "z"}, "plain task"]}\n```')
    tasks = parse_plan(text, max_tasks=3)
    assert [t["id"] for t in tasks] == ["a", "b", "b_3"]
    assert tasks[0]["depends_on"] == [] and tasks[1]["depends_on"] == ["a"]
    with pytest.raises(ValueError, match="at least one task"):
        parse_plan('{"tasks": []}', 5)
    with pytest.raises(ValueError, match="no JSON object"):
        parse_plan("no plan here", 5)


def test_verdict_is_normalised_and_checked() -> None:
    verdict = parse_verdict('{"decision": "APPROVE", "score": 7, "reasons": "ok"}')
    assert verdict == {"decision": "approve", "score": 1.0, "reasons": ["ok"], "claims": []}
    with pytest.raises(ValueError, match=r"reply.decision: 'maybe' is not one of \['approve', 'revise', 'reject'\]"):
        parse_verdict('{"decision": "maybe"}')
    with pytest.raises(ValueError, match=r"reply\.score: 'high' is not of type 'number'"):
        parse_verdict('{"decision": "revise", "score": "high"}')


def test_templates_leave_other_braces_alone() -> None:
    assert render('Do {task} as {"json": 1}', task="it") == 'Do it as {"json": 1}'
    assert extract_json('prefix {"a": {"b": 2}} suffix') == {"a": {"b": 2}}


def test_restricted_expressions() -> None:
    names = {"value": {"n": 3, "text": "Hello"}, "round": 1}
    assert evaluate("'big' if value['n'] > 2 else 'small'", names) == "big"
    assert evaluate("value['text'].lower().startswith('he') and round < 2", names) is True
    assert evaluate("len([1, 2]) + 1", names) == 3
    for bad in ("__import__('os')", "value.__class__", "[x for x in value]", "open('f')", "lambda: 1", "nope"):
        with pytest.raises(ExpressionError):
            evaluate(bad, names)
