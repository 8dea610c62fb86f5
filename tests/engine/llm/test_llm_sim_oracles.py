"""The simulated provider's oracles: the code-fix author that learns from feedback and the Tower of
Hanoi solver that slips at a seeded rate; selection and validation through `SimConfig`."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine.llm.sim import SimConfig, simulate
from engine.llm.sim.hanoi_oracle import earlier_moves, legal, optimal_move, plan, puzzle, replay
from engine.llm.sim.oracles import EXAMPLES_DATA, without_module_docstring
from engine.llm.types import BadRequestError

hanoi_checker = importlib.import_module("resources.examples.data.hanoi")
CODE_FIX = {"oracle": "code_fix", "data_dir": "code_fix", "first_attempt": "starter.py",
            "fixed_attempt": "reference_solution.py"}


def reply(prompt: str, sim: dict[str, Any], **meta: Any) -> str:
    config = SimConfig().merged(sim)
    return simulate("sim/default", [{"role": "user", "content": prompt}], {"seed": 0, **meta}, 0, config).content


def solve(disks: int, source: int = 0, target: int = 2) -> list[tuple[int, int]]:
    pegs = replay(disks, source, [])
    moves: list[tuple[int, int]] = []
    while (move := optimal_move(pegs, target)) is not None:
        assert legal(pegs, *move)
        pegs[move[1]].append(pegs[move[0]].pop())
        moves.append(move)
    return moves


@pytest.mark.parametrize("disks", [1, 2, 3, 5, 7])
def test_optimal_moves_solve_the_puzzle_in_two_to_the_n_minus_one(disks: int) -> None:
    moves = solve(disks)
    assert len(moves) == 2**disks - 1
    text = "\n".join(f"{a + 1} {b + 1}" for a, b in moves)
    assert hanoi_checker.verdict(text, disks) == {"decision": "approve", "score": 1.0,
                                                  "reasons": [f"solved {disks} disks in {len(moves)} moves (optimal)"]}


def test_optimal_move_recovers_from_a_detour() -> None:
    pegs = replay(3, 0, [(0, 1), (1, 2)])  # disk 1 to peg 2, then on to peg 3: one wasted move
    assert optimal_move(pegs, 2) == (0, 1)  # disk 2 to peg 2, as if the detour were one move
    assert optimal_move(replay(2, 0, [(0, 1), (0, 2), (1, 2)]), 2) is None


def test_the_planner_decomposes_into_one_task_per_move_each_seeing_all_earlier_ones() -> None:
    disks, source, target = puzzle("Solve the Tower of Hanoi with 3 disks: move all disks from peg 2 to peg 1")
    assert (disks, source, target) == (3, 1, 0)
    tasks = json.loads(plan(disks, source, target))["tasks"]
    assert [t["id"] for t in tasks] == [f"m{i}" for i in range(1, 8)]
    assert tasks[3]["depends_on"] == ["m1", "m2", "m3"] and "3 disks from peg 2 to peg 1" in tasks[3]["task"]
    assert json.loads(reply("Decompose: 3 disks", {"oracle": "hanoi"}, role="planner")) == json.loads(plan(3, 0, 2))


def test_a_voter_answers_the_next_move_from_the_earlier_results() -> None:
    prompt = ("Give the next move: Move 3 of 7: the next move for 3 disks from peg 1 to peg 3\n\nEarlier results:\n"
              "[m1] move disk 1 from 1 to 3\n[m2] move disk 2 from 1 to 2")
    assert earlier_moves(prompt) == [(1, 3), (1, 2)]
    answers = {reply(prompt, {"oracle": "hanoi"}, role="vote", sample=i) for i in range(10)}
    assert answers == {"move disk 1 from 3 to 2"}


def test_samples_slip_at_the_error_rate_to_other_legal_moves_deterministically() -> None:
    prompt = "Move 1 of 7: the next move for 3 disks from peg 1 to peg 3"
    sim = {"oracle": "hanoi", "error_rate": 0.3}
    answers = [reply(prompt, sim, role="vote", sample=i, task_id="m1") for i in range(200)]
    assert answers == [reply(prompt, sim, role="vote", sample=i, task_id="m1") for i in range(200)]
    wrong = [a for a in answers if a != "move disk 1 from 1 to 3"]
    assert set(wrong) == {"move disk 1 from 1 to 2"}  # the only other legal first move
    assert 0.2 < len(wrong) / len(answers) < 0.4
    always = {reply(prompt, {"oracle": "hanoi", "error_rate": 1.0}, role="vote", sample=i) for i in range(20)}
    assert always == {"move disk 1 from 1 to 2"}


def test_the_hanoi_oracle_needs_a_disk_count_and_leaves_other_roles_alone() -> None:
    with pytest.raises(BadRequestError, match="no disk count"):
        reply("Give the next move", {"oracle": "hanoi"}, role="vote")
    verdict = json.loads(reply("Review: 3 disks moved.", {"oracle": "hanoi"}, role="critic"))
    assert verdict["decision"] in ("approve", "revise", "reject")


def test_code_fix_answers_the_buggy_starter_first_then_the_fix_quoting_the_failures() -> None:
    first = reply("Write parse_duration", CODE_FIX, role="executor", round=0)
    starter = without_module_docstring((EXAMPLES_DATA / "code_fix" / "starter.py").read_text())
    assert first == f"```python\n{starter}```" and '"""' not in first
    feedback = ("Write parse_duration\n\nA reviewer judged the previous attempt: revise (score 0.00). Reasons: "
                "`python check_solution.py` failed with exit status 1; FAILED parse_duration('120'): expected 120, "
                "got 0; FAILED parse_duration(''): expected ValueError, got 0; stdout: ...")
    fixed = reply(feedback, CODE_FIX, role="executor", round=1)
    assert fixed.startswith("```python\n# Revision 1: fixed what the tests reported:\n"
                            "#   FAILED parse_duration('120'): expected 120, got 0\n")
    assert "def parse_duration" in fixed and "_DURATION" in fixed and fixed.endswith("```")
    assert "addressed the reviewer's feedback" in reply("Try again", CODE_FIX, role="executor", round=2)


def test_code_fix_reads_absolute_data_dirs_and_names_a_missing_file(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    assert reply("go", {**CODE_FIX, "data_dir": str(tmp_path), "first_attempt": "a.py"},
                 role="executor") == "```python\nx = 1\n```"
    with pytest.raises(BadRequestError, match=r"cannot read first_attempt .*nope\.py"):
        reply("go", {**CODE_FIX, "first_attempt": "nope.py"}, role="executor")
    with pytest.raises(BadRequestError, match="needs fixed_attempt"):
        reply("go", {**CODE_FIX, "fixed_attempt": ""}, role="executor", round=1)
    assert "decision" in json.loads(reply("Review this.", CODE_FIX, role="critic"))


def test_code_fix_answers_sql_attempts_quoting_the_sqlite_errors(tmp_path: Path) -> None:
    (tmp_path / "first.sql").write_text("SELECT nme FROM t;\n")
    (tmp_path / "fixed.sql").write_text("SELECT name FROM t;\n")
    sql = {**CODE_FIX, "data_dir": str(tmp_path), "first_attempt": "first.sql", "fixed_attempt": "fixed.sql"}
    assert reply("go", sql, role="executor") == "```sql\nSELECT nme FROM t;\n```"
    feedback = "Reasons: SQLite error: no such column: nme; schema: CREATE TABLE t (name TEXT)"
    assert reply(feedback, sql, role="executor", round=1) == (
        "```sql\n-- Revision 1: fixed what the check reported:\n--   SQLite error: no such column: nme\n"
        "SELECT name FROM t;\n```")
    with pytest.raises(BadRequestError, match=r"Python \(\.py\) or SQL \(\.sql\) files, not 'first\.txt'"):
        reply("go", {**sql, "first_attempt": "first.txt"}, role="executor")


@pytest.mark.parametrize(("sim", "message"), [
    ({"oracle": "chess"}, "unknown oracle 'chess'; known: code_fix, hanoi"),
    ({"oracle": "hanoi", "error_rate": 1.5}, "error_rate must be between 0 and 1"),
    ({"oracle": "code_fix", "data_dir": 3}, "data_dir must be text"),
])
def test_bad_oracle_settings_are_refused_naming_the_setting(sim: dict[str, Any], message: str) -> None:
    with pytest.raises(BadRequestError, match=message):
        SimConfig().merged(sim)


def test_without_module_docstring_keeps_unparsable_and_docless_sources() -> None:
    assert without_module_docstring('"""Doc."""\n\nimport re\n') == "import re\n"
    assert without_module_docstring("def broken(:\n") == "def broken(:\n"
    assert without_module_docstring("x = 1\n") == "x = 1\n"
