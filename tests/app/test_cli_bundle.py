"""`triadic export` and `triadic import` in-process: a run moved to another store and replayed there,
a second import refused naming --as-new, a damaged bundle refused with exit 2 and the store unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_fixtures import EXAMPLE

from app.cli.main import main
from engine.store import TraceStore


def test_export_import_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, other, bundle = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "run.triadic-run"
    assert main(["run", str(EXAMPLE), "--db", str(db), "--quiet"]) == 0
    with TraceStore(db) as store:
        run_id = store.list_runs(limit=1)[0].id
    capsys.readouterr()
    assert main(["export", run_id[:8], "-o", str(bundle), "--db", str(db)]) == 0
    assert f"exported run {run_id[:12]}" in capsys.readouterr().out
    assert main(["import", str(bundle), "--db", str(other)]) == 0
    assert f"imported run {run_id}" in capsys.readouterr().out
    assert main(["import", str(bundle), "--db", str(other)]) == 2
    assert "--as-new" in capsys.readouterr().err
    assert main(["replay", run_id[:8], "--db", str(other), "--quiet"]) == 0
    assert "0 model call(s) live, 0 divergence(s)" in capsys.readouterr().out
    assert main(["import", str(bundle), "--db", str(other), "--as-new"]) == 0
    with TraceStore(other) as store:
        assert len(store.list_runs()) == 3  # the import, its replay, the copy


def test_a_damaged_bundle_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.triadic-run"
    bad.write_bytes(b"PK\x03\x04 not really")
    db = tmp_path / "b.db"
    assert main(["import", str(bad), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert "import" in err and "not a run bundle" in err
    with TraceStore(db) as store:
        assert store.list_runs() == []
    assert main(["export", "nope", "-o", str(tmp_path / "x"), "--db", str(db)]) == 2
    assert "no run 'nope'" in capsys.readouterr().err
