"""A verifier whose check cannot run is a validation error (Problems panel, `triadic validate`), and
at run time a check that cannot judge fails its verifier at once instead of asking for revisions."""

from __future__ import annotations

import pytest

from engine.graph.validate import validate
from engine.runtime import Run, compile_workflow
from engine.runtime.plan import CompileError
from tests.engine.runtime.fakes import FakeGateway, build


def _verified(check: str, expression: str) -> object:
    return build([("in", "input", {}), ("x", "executor", {}),
                  ("v", "verifier", {"check": check, "expression": expression, "max_rounds": 3}), ("o", "output", {})],
                 ["in.value->x.task", "x.result->v.subject", "v.verdict->x.feedback", "v.passed->o.value"])


@pytest.mark.parametrize(("check", "expression", "said"), [
    ("python", "len(subject) >", "is not valid Python at line 1"),
    ("regex", "fullmatch:(ab", "the pattern does not compile at position 0: missing ), unterminated subpattern"),
    ("json_schema", '{"type": ', "the schema is not JSON"),
    ("json_schema", '{"properties": {"a": {"type": "nope"}}}', "not a valid JSON Schema at ['properties']['a']['type']"),
    ("command", "  ", "its expression is empty"),
])
def test_a_check_that_cannot_run_is_an_error_on_its_expression(check: str, expression: str, said: str) -> None:
    [problem] = [p for p in validate(_verified(check, expression)) if p.code == "bad_check"]  # type: ignore[arg-type]
    assert problem.severity == "error" and problem.node_id == "v" and problem.field == "params.expression"
    assert f"The {check} check of Verifier 'V' (v) cannot run: " in problem.message and said in problem.message
    with pytest.raises(CompileError):
        compile_workflow(_verified(check, expression))  # type: ignore[arg-type]


def test_good_checks_pass() -> None:
    for check, expression in [("python", "len(subject) > 0 and {data}"), ("regex", "search:\\d+"),
                              ("json_schema", '{"type": "object"}'), ("command", "pytest -q"), ("sql", "SELECT 1")]:
        assert not [p for p in validate(_verified(check, expression)) if p.code == "bad_check"]  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_command_that_is_not_there_fails_the_verifier_without_revisions() -> None:
    gateway = FakeGateway()
    plan = compile_workflow(_verified("command", "no-such-command-triadic --check"))  # type: ignore[arg-type]
    result = await Run(plan, gateway=gateway, inputs={"goal": "g"}).wait()
    assert result.status == "failed"
    assert "the command check cannot judge anything: command not found" in result.reason
    assert len(gateway.requests) == 1  # the executor's first answer only: no revision was asked for
