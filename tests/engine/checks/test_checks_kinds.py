"""run_check for the python, regex, json_schema and command kinds: approve, revise, reject, hostile."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from engine.checks import Verdict, run_check

DATA = Path(str(resources.files("resources.examples.data")))
SCHEMA = json.dumps({"type": "object", "required": ["name", "items"],
                     "properties": {"name": {"type": "string"},
                                    "items": {"type": "array", "items": {"type": "integer", "minimum": 0}}}})


async def check(kind: str, expression: str, subject: object, **kw: object) -> Verdict:
    return await run_check(kind, expression, subject, timeout_s=float(kw.pop("timeout_s", 10.0)), **kw)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_python_expression_verdicts() -> None:
    assert (await check("python", "len(subject) > 3", "hello")).decision == "approve"
    failed = await check("python", "subject.startswith('x')", "hello")
    assert failed.decision == "revise" and "subject.startswith('x')" in failed.reasons[0]
    scored = await check("python", "len(subject) / 10", "hello")
    assert scored.decision == "approve" and scored.score == 0.5
    custom = await check("python", "{'decision': 'reject', 'score': 0.2, 'reasons': ['nope']}", "x")
    assert custom == Verdict("reject", 0.2, ["nope"])
    pair = await check("python", "(subject['n'] > 1, 'n must exceed 1')", {"n": 0})
    assert pair.decision == "revise" and pair.reasons == ["n must exceed 1"]


@pytest.mark.asyncio
async def test_python_errors_say_what_went_wrong() -> None:
    bad_syntax = await check("python", "len(subject >", "x")
    assert bad_syntax.decision == "reject" and "invalid Python expression" in bad_syntax.reasons[0]
    runtime = await check("python", "subject['missing']", {"a": 1})
    assert runtime.decision == "revise" and "KeyError" in runtime.reasons[0]


@pytest.mark.asyncio
async def test_python_hostile_subjects_do_not_hang_or_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
    loop = await check("python", "[i for i in iter(int, 1)]", "x", timeout_s=1.0)
    assert loop.decision == "revise" and "did not finish within 1 s" in loop.reasons[0]
    flood = await check("python", "print('x' * 10**8)", "x")
    assert flood.decision == "revise" and "more output" in flood.reasons[0]
    secret = await check("python", "__import__('os').environ.get('ANTHROPIC_API_KEY')", "x")
    assert secret.decision == "revise" and "None" in secret.reasons[0]


@pytest.mark.asyncio
async def test_regex_search_fullmatch_and_redos_guard() -> None:
    assert (await check("regex", r"\d{3}", "call 555 now")).decision == "approve"
    assert (await check("regex", r"fullmatch:\d{3}", "call 555 now")).decision == "revise"
    assert (await check("regex", "fullmatch:[a-z]+", "hello")).reasons == ["matched 'hello' at offset 0"]
    bad = await check("regex", "([a-z", "x")
    assert bad.decision == "reject" and "position" in bad.reasons[0]
    redos = await check("regex", "^(a+)+$", "a" * 40 + "!", timeout_s=1.0)
    assert redos.decision == "revise" and "did not finish" in redos.reasons[0]


@pytest.mark.asyncio
async def test_json_schema_reports_every_error_path() -> None:
    good = await check("json_schema", SCHEMA, '{"name": "cart", "items": [1, 2]}')
    assert good.decision == "approve"
    bad = await check("json_schema", SCHEMA, {"name": 3, "items": [1, -2, "x"]})
    assert bad.decision == "revise"
    assert any(r.startswith("$.name:") for r in bad.reasons)
    assert any(r.startswith("$.items[1]:") for r in bad.reasons)
    assert any(r.startswith("$.items[2]:") for r in bad.reasons)
    fenced = await check("json_schema", SCHEMA, '```json\n{"name": "a", "items": []}\n```')
    assert fenced.decision == "approve"
    not_json = await check("json_schema", SCHEMA, "{name: 1")
    assert not_json.decision == "revise" and "line 1, column 2" in not_json.reasons[0]
    assert (await check("json_schema", '{"type": 5}', "{}")).decision == "reject"
    assert (await check("json_schema", "{not json", "{}")).decision == "reject"


@pytest.mark.asyncio
async def test_command_check_subject_file_stdin_and_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-secret")
    assert (await check("command", 'grep -q hello "$SUBJECT"', "say hello")).decision == "approve"
    assert (await check("command", "grep -q hello", "say hello")).decision == "approve"  # stdin
    failed = await check("command", "echo some output; echo oops >&2; exit 3", "x")
    assert failed.decision == "revise" and "exit status 3" in failed.reasons[0]
    assert any("oops" in r for r in failed.reasons) and any("some output" in r for r in failed.reasons)
    leak = await check("command", 'test -z "$GITHUB_TOKEN"', "x")
    assert leak.decision == "approve"
    slow = await check("command", "sleep 30", "x", timeout_s=1.0)
    assert slow.decision == "revise" and "did not finish within 1 s" in slow.reasons[0]
    missing = await check("command", "no-such-program-xyz", "x")
    assert missing.decision == "reject" and "not found" in missing.reasons[0]
    bomb = await check("command", "python -c 'import os\nwhile True: os.fork()'", "x", timeout_s=5.0)
    assert bomb.decision == "revise"


@pytest.mark.asyncio
async def test_command_check_runs_the_code_fix_example() -> None:
    workdir = str(DATA / "code_fix")
    starter = (DATA / "code_fix" / "starter.py").read_text()
    fixed = (DATA / "code_fix" / "reference_solution.py").read_text()
    bad = await check("command", "python check_solution.py", starter, workdir=workdir)
    assert bad.decision == "revise"
    assert any(r.startswith("FAILED parse_duration('120')") for r in bad.reasons)
    assert any("9 failed, 6 passed" in r for r in bad.reasons)
    good = await check("command", "python check_solution.py", f"```python\n{fixed}```", workdir=workdir)
    assert good.decision == "approve"


@pytest.mark.asyncio
async def test_hanoi_checker_as_command_and_python_check() -> None:
    solution = "1 3\n1 2\n3 2\n1 3\n2 1\n2 3\n1 3\n"
    command = await check("command", "python hanoi.py --disks 3", solution, workdir=str(DATA))
    assert command.decision == "approve"
    wrong = await check("command", "python hanoi.py --disks 3", "1 3\n1 3\n", workdir=str(DATA))
    assert wrong.decision == "revise" and any("smaller disk" in r for r in wrong.reasons)
    python = await check("python", "__import__('hanoi').verdict(subject, 3)", "A->C\nA->B\n", workdir=str(DATA))
    assert python.decision == "revise" and "not solved" in python.reasons[0]
    assert python.score == pytest.approx(2 / 7)


@pytest.mark.asyncio
async def test_unknown_kind_and_bad_timeout_reject() -> None:
    assert (await check("xpath", "//a", "x")).decision == "reject"
    assert (await run_check("python", "True", "x", timeout_s=0)).decision == "reject"


@pytest.mark.asyncio
async def test_missing_workdir_rejects(tmp_path: Path) -> None:
    verdict = await run_check("command", "true", "x", timeout_s=5, workdir=str(tmp_path / "absent"))
    assert verdict.decision == "reject" and "not a directory" in verdict.reasons[0]
