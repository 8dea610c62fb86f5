"""`triadic prune` and `triadic vacuum` through `app.cli.main`: a dry run removes nothing, a prune keeps
the source of a replay that stays, bad rules are refused with a clear message, vacuum prints sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE

from app.cli.main import main
from engine.store import TraceStore


def _three_runs_and_a_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    db = tmp_path / "t.db"
    for _ in range(3):
        assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0
    with TraceStore(db) as store:
        oldest = store.list_runs()[-1].id
    assert main(["replay", oldest, "--db", str(db)]) == 0
    capsys.readouterr()
    with TraceStore(db) as store:
        return db, [r.id for r in store.list_runs()]  # newest first: the replay, then the three runs


def test_prune_dry_run_then_prune_keeping_the_source_of_a_replay(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db, (replay, newest, middle, oldest) = _three_runs_and_a_replay(tmp_path, capsys)
    assert main(["prune", "--keep", "2", "--dry-run", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"would remove {middle[:12]}" in out and oldest[:12] not in out.split("dry run")[0]
    assert "1 run to remove; 1 kept: replays or forks that stay descend from them" in out
    with TraceStore(db) as store:
        assert len(store.list_runs()) == 4
    assert main(["prune", "--keep", "2", "--db", str(db)]) == 0
    assert "removed 1 run;" in capsys.readouterr().out
    with TraceStore(db) as store:
        assert [r.id for r in store.list_runs()] == [replay, newest, oldest]
    assert main(["vacuum", "--db", str(db)]) == 0
    assert " → " in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "words"), [
    (["prune"], "needs a rule"),
    (["prune", "--keep", "-1"], "--keep"),
    (["prune", "--older-than", "soon"], "--older-than"),
])
def test_bad_prune_rules_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                     words: str) -> None:
    db = tmp_path / "t.db"
    TraceStore(db).close()
    assert main([*argv, "--db", str(db)]) == 2
    assert words in capsys.readouterr().err
