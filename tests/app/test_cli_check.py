"""`triadic run` reports a workflow's trace contracts, and `triadic check` checks past runs against the
contracts of their recorded workflow version or of a given file, with its exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE, example_doc, write_doc

from app.cli.main import main
from engine.store import TraceStore


def _last_run(db: Path) -> str:
    with TraceStore(db) as store:
        return store.list_runs(limit=1)[0].id


def test_run_reports_the_contracts_and_fails_when_one_is_broken(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "contract PASS  Every executor output is reviewed before the result" in out
    doc = example_doc()
    doc["contracts"] = [{"kind": "max_calls", "max_calls": 2}]
    tight = write_doc(tmp_path / "tight.triadic.json", doc)
    assert main(["run", str(tight), "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "succeeded" in out and "contract FAIL  At most 2 model calls: at event" in out


def test_check_uses_the_recorded_version_or_a_given_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0
    run_id = _last_run(db)
    capsys.readouterr()
    assert main(["check", run_id[:8], "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"run {run_id[:12]}" in out and out.count("PASS") == 6 and "FAIL" not in out
    assert main(["show", run_id, "--db", str(db)]) == 0  # show lists what the run recorded
    assert capsys.readouterr().out.count("contract PASS") == 6
    doc = example_doc()
    doc["contracts"] = [{"kind": "approve_score", "min_score": 0.99}, {"kind": "max_duration", "max_seconds": 60}]
    strict = write_doc(tmp_path / "strict.triadic.json", doc)
    assert main(["check", run_id, "--db", str(db), "--workflow", str(strict)]) == 1
    out = capsys.readouterr().out
    assert "against the given file" in out and "FAIL  Every approving verdict scores at least 0.99: at event" in out
    assert "PASS  The run ends within 60 seconds" in out


def test_check_of_a_run_whose_workflow_had_no_contracts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    doc = example_doc()
    doc.pop("contracts")
    doc["version"] = 1  # a file from before contracts existed
    assert main(["run", str(write_doc(tmp_path / "old.triadic.json", doc)), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["check", _last_run(db), "--db", str(db)]) == 0
    assert "no contracts to check" in capsys.readouterr().out


def test_check_refuses_unknown_runs_and_malformed_contracts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0
    run_id = _last_run(db)
    capsys.readouterr()
    assert main(["check", "feedbeef", "--db", str(db)]) == 2
    assert "no run 'feedbeef' in the store" in capsys.readouterr().err
    doc = example_doc()
    doc["contracts"] = [{"kind": "max_cost", "max_cost": "cheap"}]
    bad = write_doc(tmp_path / "bad.triadic.json", doc)
    assert main(["check", run_id, "--db", str(db), "--workflow", str(bad)]) == 2
    err = capsys.readouterr().err
    assert 'contracts[0].max_cost: expected a number, not "cheap"' in err and "field contracts[0].max_cost" in err
    assert json.loads(bad.read_text())["contracts"][0]["max_cost"] == "cheap"  # the file is left as it was


def test_run_and_check_report_a_sub_graph_file_s_own_contracts(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from engine.graph.format import save_workflow
    from tests.engine.replay.sub_graph_files import caller, write_sub_graph

    db = tmp_path / "t.db"
    write_sub_graph(tmp_path, {"kind": "max_calls", "max_calls": 1, "nodes": ["executor"]})
    save_workflow(caller(), tmp_path / "caller.triadic.json")
    assert main(["run", str(tmp_path / "caller.triadic.json"), "--db", str(db), "--quiet"]) == 1
    out = capsys.readouterr().out
    assert "contract FAIL  [sub-graph 'research'] At most 1 model calls (executor): at event" in out
    assert main(["check", _last_run(db), "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  [sub-graph 'research'] At most 1 model calls (executor): at event" in out
    assert "in its execution 1: model call 2 (by 'research/executor')" in out
