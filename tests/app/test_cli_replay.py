"""`triadic replay` and `triadic fork` in-process: a replay of the triad served from its recording,
a fork with a changed prompt, lineage in `triadic runs`, changed files named, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE, example_doc, gated_doc, write_doc

from app.cli.main import main
from engine.replay.identity import first_difference
from engine.store import TraceStore
from tests.engine.replay.sub_graph_files import caller_document, edit_node, write_sub_graph


def _recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str], path: Path = EXAMPLE, *extra: str) -> tuple[Path, str]:
    db = tmp_path / "t.db"
    assert main(["run", str(path), "--db", str(db), "--quiet", *extra]) == 0
    capsys.readouterr()
    with TraceStore(db) as store:
        return db, store.list_runs(limit=1)[0].id


def test_replay_serves_every_call_and_runs_shows_its_lineage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = _recorded(tmp_path, capsys)
    assert main(["replay", run_id[:8], "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"(replay of {run_id[:12]})" in out and "succeeded" in out
    assert "15 model call(s) and 0 tool call(s) served, 0 model call(s) live, 0 divergence(s)" in out
    assert "events: identical to the recording, byte for byte (run id and lineage aside)" in out
    with TraceStore(db) as store:
        replayed, source = store.list_runs(limit=2)
        assert replayed.replay_of == run_id and replayed.outputs == source.outputs
    assert main(["runs", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert f"replay of {run_id[:12]}" in listing
    assert listing.index(run_id[:12]) < listing.index(f"└ {replayed.id[:12]}")  # under its source


def test_replay_names_the_nodes_todays_file_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = _recorded(tmp_path, capsys)
    doc = example_doc()
    next(n for n in doc["nodes"] if n["id"] == "critic")["params"]["approve_score"] = 0.99
    changed = write_doc(tmp_path / "today.triadic.json", doc)
    assert main(["replay", run_id, "--db", str(db), "--quiet", "--file", str(changed)]) == 0
    captured = capsys.readouterr()
    assert "differ from the versions run" in captured.err and "critic: params changed" in captured.err
    assert "0 divergence(s)" in captured.out  # the recorded version ran


def test_fork_with_a_new_prompt_runs_the_node_live(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = _recorded(tmp_path, capsys)
    assert main(["fork", run_id, "--db", str(db), "--quiet", "--at", "executor#1",
                 "--prompt", "Answer briefly: {task}"]) == 0
    out = capsys.readouterr().out
    assert "forking run" in out and "at executor execution 1" in out
    assert "1 model call(s)" in out and "0 divergence(s)" in out  # the plan served, the rest live
    with TraceStore(db) as store:
        fork = store.list_runs(limit=1)[0]
        assert fork.fork_of == run_id and fork.fork_at_seq is not None
    assert main(["runs", "--db", str(db)]) == 0
    assert f"fork of {run_id[:12]} @ seq {fork.fork_at_seq}" in capsys.readouterr().out


def test_a_replay_gets_the_recorded_gate_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gated = write_doc(tmp_path / "gated.triadic.json", gated_doc())
    db, run_id = _recorded(tmp_path, capsys, gated, "--auto-approve")
    assert main(["replay", run_id, "--db", str(db), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    [decided] = [r for r in records if r["kind"] == "human_decided"]
    with TraceStore(db) as store:
        replayed = store.list_runs(limit=1)[0]
        recorded = [e for e in store.iter_events(run_id) if e.kind == "human_decided"]
        # the answer as recorded, by whoever gave it: the replay's events equal the recording's
        assert first_difference(store.iter_events(run_id), store.iter_events(replayed.id)) is None
    assert decided["decision"] == "approve" and decided["by"] == recorded[0].by == "policy"  # type: ignore[attr-defined]


def test_bad_replay_and_fork_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = _recorded(tmp_path, capsys)
    assert main(["replay", "ffffffffff", "--db", str(db)]) == 2
    assert "no run 'ffffffffff'" in capsys.readouterr().err
    assert main(["fork", run_id, "--db", str(db), "--at", "nope"]) == 2
    assert "has no node 'nope'" in capsys.readouterr().err
    assert main(["fork", run_id, "--db", str(db), "--at", "planner#4"]) == 2
    assert "planner ran 1 time(s)" in capsys.readouterr().err
    assert main(["fork", run_id, "--db", str(db)]) == 2  # --at is required


def test_diff_of_a_replay_is_empty_and_of_a_fork_names_the_first_difference(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id = _recorded(tmp_path, capsys)
    assert main(["replay", run_id, "--db", str(db), "--quiet"]) == 0
    assert main(["fork", run_id, "--db", str(db), "--quiet", "--at", "executor", "--prompt", "Briefly: {task}"]) == 0
    capsys.readouterr()
    with TraceStore(db) as store:
        fork, replayed, _ = (r.id for r in store.list_runs(limit=3))
    assert main(["diff", run_id, replayed, "--db", str(db)]) == 0
    assert "no differences" in capsys.readouterr().out
    assert main(["diff", run_id[:10], fork[:10], "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "the runs differ" in out and "first divergence: llm executor|" in out and "Briefly: " in out
    assert "Verdict changes" in out and "outputs of executor:" in out
    assert main(["diff", run_id, "0000000000", "--db", str(db)]) == 2
    assert "no run '0000000000'" in capsys.readouterr().err


def test_check_determinism_prints_per_node_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert main(["check-determinism", str(EXAMPLE), "-n", "2", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "2 live runs of Triad" in out and "planner" in out and "2/2 (100%)" in out
    assert main(["check-determinism", str(EXAMPLE), "-n", "3", "--vary-seed", "--db", str(db)]) == 1
    assert "(seed varied per run)" in capsys.readouterr().out
    with TraceStore(db) as store:
        assert len(store.list_runs()) == 5
    assert main(["check-determinism", str(EXAMPLE), "-n", "1"]) == 2
    assert "at least 2" in capsys.readouterr().err


def test_replay_and_fork_name_the_sub_graph_nodes_a_changed_file_differs_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sub = write_sub_graph(tmp_path)
    caller = write_doc(tmp_path / "caller.triadic.json", caller_document())
    db, run_id = _recorded(tmp_path, capsys, caller)
    edit_node(sub, "critic", approve_score=0.99)
    assert main(["replay", run_id, "--db", str(db), "--quiet", "--file", str(caller)]) == 0
    captured = capsys.readouterr()
    assert "research/critic: params changed" in captured.err and "re-running the recorded versions" in captured.err
    assert "0 model call(s) live, 0 divergence(s)" in captured.out  # the recorded sub-graph version ran
    assert main(["fork", run_id, "--db", str(db), "--quiet", "--at", "research/critic#1", "--file", str(caller),
                 "--model", "sim/other"]) == 0
    assert "research/critic: params changed" in capsys.readouterr().err
