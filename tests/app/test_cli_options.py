"""--input / --model-override parsing and checking against a workflow."""

from __future__ import annotations

import pytest

from app.cli.errors import CliError
from app.cli.options import check_inputs, check_overrides, input_names, parse_pairs
from engine.graph.model import Node, Workflow


def test_parse_pairs_keeps_equals_in_values() -> None:
    assert parse_pairs(["a=1", "b=x=y", "c="], "--input", "N=V") == {"a": "1", "b": "x=y", "c": ""}


@pytest.mark.parametrize("raw, message", [
    ("novalue", "--input 'novalue': expected N=V"),
    ("=v", "--input '=v': expected N=V"),
])
def test_parse_pairs_rejects_bad_syntax(raw: str, message: str) -> None:
    with pytest.raises(CliError) as info:
        parse_pairs([raw], "--input", "N=V")
    assert info.value.message == message and info.value.code == 2


def test_parse_pairs_rejects_duplicates() -> None:
    with pytest.raises(CliError, match="'a' is given twice"):
        parse_pairs(["a=1", "a=2"], "--input", "N=V")


def test_unknown_input_lists_valid_names() -> None:
    wf = Workflow()
    wf.add_node(Node("i1", "input", params={"name": "goal"}))
    wf.add_node(Node("i2", "input", params={"name": "audience"}))
    assert input_names(wf) == ["goal", "audience"]
    check_inputs(wf, {"goal": "x"}, "f.json")
    with pytest.raises(CliError) as info:
        check_inputs(wf, {"topic": "x"}, "f.json")
    assert info.value.message == "--input topic: f.json has no input named 'topic' (valid: audience, goal)"


def test_overrides_accept_llm_roles_only() -> None:
    check_overrides({"executor": "sim/default", "critic": "openai/gpt-4o-mini"})
    with pytest.raises(CliError, match=r"unknown LLM role 'writer' \(valid: critic, executor"):
        check_overrides({"writer": "sim/default"})
    with pytest.raises(CliError, match="unknown LLM role 'verifier'"):
        check_overrides({"verifier": "sim/default"})
    with pytest.raises(CliError, match="the model is empty"):
        check_overrides({"critic": " "})
