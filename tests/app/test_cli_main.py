"""The `triadic` entry point: help, usage errors as one line with exit 2, fast imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_fixtures import EXAMPLE

from app.cli.main import main

HEAVY = ("litellm", "sqlalchemy", "sqlmodel", "PySide6")


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("run", "validate", "runs", "show", "gui"):
        assert command in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: triadic" in capsys.readouterr().out


@pytest.mark.parametrize("argv, expected", [
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["run"], "the following arguments are required: FILE"),
    (["runs", "--limit", "zero"], "expected a whole number, got 'zero'"),
    (["runs", "--limit", "0"], "expected a number ≥ 1, got 0"),
    (["run", "x.json", "--auto-approve", "--auto-reject"], "not allowed with argument"),
])
def test_usage_errors_are_one_line_exit_2(argv: list[str], expected: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def _modules_after(code: str) -> set[str]:
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          timeout=60)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_help_imports_nothing_heavy() -> None:
    loaded = _modules_after("from app.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]


def test_validate_imports_nothing_heavy() -> None:
    loaded = _modules_after(f"from app.cli.main import main\nmain(['validate', {str(EXAMPLE)!r}])")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
