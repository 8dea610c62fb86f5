"""`triadic run` in-process: the triad example offline, --json, overrides, gates and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE, example_doc, gated_doc, write_doc

from app.cli.main import main


def test_run_example_prints_summary_and_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "run " in out and " started: Triad" in out  # plain progress lines (stdout is not a TTY)
    assert "Plan (planner) running" in out
    for expected in ("succeeded", "Nodes", "Verdicts", "output result:", "run id: ", f"db: {db}"):
        assert expected in out
    assert db.exists()


def test_json_prints_one_event_per_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--json",
                 "--model-override", "executor=sim/gpt-4o-mini", "--input", "goal=Plant a tree"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["kind"] == "run_started" and records[-1]["kind"] == "run_finished"
    assert records[0]["inputs"] == {"goal": "Plant a tree"}
    assert [r["seq"] for r in records] == sorted(r["seq"] for r in records)
    executor_models = {r["model"] for r in records if r["kind"] == "llm_started" and r["node_id"] == "executor"}
    assert executor_models == {"sim/gpt-4o-mini"}
    assert any(r["kind"] == "verdict" for r in records)


def test_quiet_prints_status_and_outputs_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("succeeded")
    assert "output result:" in out and "Nodes" not in out and "running" not in out


@pytest.mark.parametrize("extra, message", [
    (["--input", "topic=x"], "--input topic: {file} has no input named 'topic' (valid: goal)"),
    (["--input", "goal"], "--input 'goal': expected NAME=VALUE"),
    (["--model-override", "executor"], "--model-override 'executor': expected ROLE=MODEL"),
    (["--model-override", "writer=sim/default"], "unknown LLM role 'writer' (valid: critic, executor"),
])
def test_bad_flags_exit_2_with_one_line_and_store_nothing(
        extra: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), *extra]) == 2
    err = capsys.readouterr().err
    assert message.format(file=EXAMPLE) in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not db.exists()


def test_bad_files_exit_2_naming_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.triadic.json"
    assert main(["run", str(missing), "--db", str(tmp_path / "t.db")]) == 2
    assert f"{missing}: error: There is no such file." in capsys.readouterr().err
    malformed = tmp_path / "bad.triadic.json"
    malformed.write_text("{nope", encoding="utf-8")
    assert main(["run", str(malformed), "--db", str(tmp_path / "t.db")]) == 2
    assert f"{malformed}: error: Not valid JSON at line 1" in capsys.readouterr().err
    doc = example_doc()
    doc["edges"] = [e for e in doc["edges"] if e["id"] != "e3"]
    invalid = write_doc(tmp_path / "invalid.triadic.json", doc)
    assert main(["run", str(invalid), "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert f"{invalid}: error: Critic 'Review' (critic) has nothing to review" in err
    assert "[node critic" in err and "Traceback" not in err
    assert not (tmp_path / "t.db").exists()


def test_provider_error_prints_reason_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    planner = next(n for n in doc["nodes"] if n["role"] == "planner")
    planner["params"].update(retries=0, sim={"fail_first": 1000, "fail_kind": "server_error"})
    path = write_doc(tmp_path / "outage.triadic.json", doc)
    assert main(["run", str(path), "--db", str(tmp_path / "t.db")]) == 1
    out = capsys.readouterr().out
    assert "Plan (planner) llm sim/gpt-4o-mini: error ProviderUnavailableError" in out
    summary = out[out.index("\nfailed — "):]
    assert "reason: Plan (planner): " in summary and "simulated server error (500)" in summary




def _run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]], str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def _exit_code_for(records: list[dict[str, object]]) -> int:
    return 0 if records[-1]["status"] == "succeeded" else 1


def test_human_gate_auto_approve_and_reject(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_doc(tmp_path / "gated.triadic.json", gated_doc())
    base = ["run", str(path), "--db", str(tmp_path / "t.db"), "--json"]
    code, records, _ = _run_json([*base, "--auto-approve"], capsys)
    decisions = [(r["decision"], r["by"]) for r in records if r["kind"] == "human_decided"]
    assert decisions == [("approve", "policy")]
    assert code == 0 and "result" in records[-1]["outputs"]  # type: ignore[operator]
    code, records, _ = _run_json([*base, "--auto-reject"], capsys)
    assert [r["decision"] for r in records if r["kind"] == "human_decided"] == ["reject"]
    assert records[-1]["outputs"] == {}  # the rejected artifact never reached the output
    assert code == _exit_code_for(records)


def test_human_gate_without_terminal_rejects_with_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_doc(tmp_path / "gated.triadic.json", gated_doc())
    code, records, err = _run_json(["run", str(path), "--db", str(tmp_path / "t.db"), "--json"], capsys)
    assert "gate (Publish this?) rejected: no terminal to ask on and neither --auto-approve" in err
    decided = [r for r in records if r["kind"] == "human_decided"]
    assert [r["decision"] for r in decided] == ["reject"]
    assert decided[0]["reason"].startswith("rejected: no terminal to ask on")  # why is in the trace too
    assert code == _exit_code_for(records)


def test_override_breaking_cross_family_review_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    critic = next(n for n in doc["nodes"] if n["role"] == "critic")
    critic["params"].update(require_other_family=True, model="anthropic/claude-3-5-haiku-20241022")
    path = write_doc(tmp_path / "family.triadic.json", doc)
    assert main(["run", str(path), "--db", str(tmp_path / "t.db"), "-m", "critic=sim/default"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: error: Critic 'Review' (critic) must use a model from another provider family" in err
    assert "[node critic, field params.model]" in err


def test_budget_exceeded_run_exits_1_with_the_budget_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["settings"]["budget"]["max_tokens"] = 50
    path = write_doc(tmp_path / "tight.triadic.json", doc)
    assert main(["run", str(path), "--db", str(tmp_path / "t.db")]) == 1
    out = capsys.readouterr().out
    assert "budget tokens exceeded" in out
    assert "\nbudget_exceeded — " in out and "problem: budget tokens exceeded" in out


def test_what_could_not_be_recorded_is_said_even_when_quiet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.store import TraceStore

    def broken_save(self: TraceStore, doc: dict, *, workflow_hash: str) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(TraceStore, "save_workflow", broken_save)
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--quiet"]) == 3  # the trace is incomplete: exit 3 (issue 14)
    out = capsys.readouterr().out
    assert out.startswith("succeeded")
    assert "problem: not recorded: workflow version " in out and "OSError: disk full" in out


def test_run_limit_flags_hold_for_this_run_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = EXAMPLE.read_text()
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--json", "--max-tokens", "150",
                 "--max-cost", "0.5", "--deadline", "30", "--seed", "7"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["settings"]["budget"] == {"max_tokens": 150, "max_cost_usd": 0.5, "deadline_s": 30.0,
                                                "max_model_calls": 200}
    assert records[0]["settings"]["seed"] == 7
    assert records[-1]["status"] == "budget_exceeded" and "tokens budget exceeded" in records[-1]["reason"]
    assert EXAMPLE.read_text() == before  # the file keeps its own settings


@pytest.mark.parametrize("flag, value, expected", [
    ("--max-cost", "-1", "expected a finite number ≥ 0, got -1"),
    ("--max-tokens", "1.5", "expected a whole number, got '1.5'"),
    ("--deadline", "inf", "expected a finite number ≥ 0, got inf"),
    ("--seed", "nan", "expected a whole number, got 'nan'"),
])
def test_run_limit_flags_refuse_what_is_not_a_limit(flag: str, value: str, expected: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), flag, value]) == 2
    assert expected in capsys.readouterr().err


def test_show_lists_the_runs_memory_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    research = EXAMPLE.parent / "research.triadic.json"
    db = tmp_path / "t.db"
    assert main(["run", str(research), "--db", str(db), "--quiet"]) == 0
    run_id = next(line.split()[-1] for line in capsys.readouterr().out.splitlines() if line.startswith("run id:"))
    assert main(["show", run_id[:8], "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Memory writes" in out and "latest_report" in out and "workflow" in out and "yes" in out


def test_a_cost_budget_cuts_the_call_that_crosses_it_while_it_streams(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(EXAMPLE), "--db", str(tmp_path / "t.db"), "--json", "--max-cost", "0.0001"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    finished = [r for r in records if r["kind"] == "llm_finished"]
    cut = finished[-1]
    assert cut["error_type"] == "BudgetHit"  # cut mid-stream, at the price the CLI's gateway tells beforehand
    assert records[-1]["status"] == "budget_exceeded" and records[-1]["cost_usd"] < 0.000105
