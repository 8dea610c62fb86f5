"""`triadic export-script`: every bundled example becomes a standalone script that, run offline in a
subprocess from another folder, gives the result `triadic run` gives (same seed, same outputs); bad
input to the script is exit 2; a file that does not validate is refused with its problems."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from app.resource_paths import bundled_examples
from tests.app.cli_fixtures import EXAMPLE, example_doc, write_doc

EXAMPLES = sorted(bundled_examples())
OFFLINE_ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_PROXY": "*",
               "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}


def _script(source: Path, folder: Path) -> Path:
    target = folder / (source.name.split(".")[0] + "_script.py")
    assert main(["export-script", str(source), "-o", str(target)]) == 0
    return target


def _run_script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=240,
                          cwd=script.parent, env=OFFLINE_ENV, check=False)


@pytest.mark.parametrize("source", EXAMPLES, ids=[p.name.split(".")[0] for p in EXAMPLES])
def test_each_example_script_gives_what_triadic_run_gives(source: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = _script(source, elsewhere)
    capsys.readouterr()
    assert main(["run", str(source), "--json", "--seed", "7", "--auto-approve", "--db", str(tmp_path / "r.db")]) in (0, 1)
    finished = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"run_finished"' in line][-1]
    done = _run_script(script, "--json", "--seed", "7", "--auto-approve", "--offline")
    assert done.returncode == (0 if finished["status"] == "succeeded" else 1), done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == finished["status"]
    assert result["outputs"] == finished["outputs"]


def test_script_options_inputs_overrides_and_bad_input(tmp_path: Path) -> None:
    script = _script(EXAMPLE, tmp_path)
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env python3") and "Triad: plan, execute, review" in text
    done = _run_script(script, "--json", "-i", "goal=Plan a herb garden", "-m", "executor=sim/gpt-4o-mini")
    assert done.returncode == 0, done.stderr
    assert "herb garden" in json.dumps(json.loads(done.stdout)["outputs"])
    bad = _run_script(script, "-i", "nope=1")
    assert bad.returncode == 2 and "--input nope: no such input (inputs: goal)" in bad.stderr
    recorded = _run_script(script, "--db", str(tmp_path / "s.db"), "--json")
    assert recorded.returncode == 0 and (tmp_path / "s.db").exists()


def test_a_file_that_does_not_validate_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example_doc()
    doc["nodes"][1]["params"]["prompt"] = "use sk-abcdefghijklmnop1234567890 please"
    bad = write_doc(tmp_path / "bad.triadic.json", doc)
    assert main(["export-script", str(bad), "-o", str(tmp_path / "bad.py")]) == 2
    assert "holds a secret" in capsys.readouterr().err and not (tmp_path / "bad.py").exists()


def test_file_menu_exports_the_open_workflow_as_a_script(qtbot: object, gui_loop: object, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from run_fixtures import run_window

    from app import export_script_action

    window = run_window(qtbot, tmp_path, "triad")  # type: ignore[arg-type]
    window.document.workflow.set_param("planner", "prompt", "Edited, not saved: {goal}")
    target = tmp_path / "triad.py"
    monkeypatch.setattr(export_script_action, "ask_script_path", lambda _parent, suggested: str(target))
    window.actions_by_name["export_script"].trigger()
    assert target.exists() and "Edited, not saved" in target.read_text(encoding="utf-8")
    done = _run_script(target, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "succeeded"
