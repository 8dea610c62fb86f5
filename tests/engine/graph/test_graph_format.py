"""The workflow file: exact round trips, determinism, the content hash and atomic saves."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from engine.graph.format import (
    FORMAT_VERSION,
    WorkflowFileError,
    dumps_workflow,
    load_workflow,
    loads_workflow,
    save_workflow,
    workflow_from_dict,
    workflow_hash,
    workflow_to_dict,
)
from engine.graph.generate import generate_workflow
from engine.graph.model import Budget, Edge, Node, NodeUi, RunSettings, Workflow

EXAMPLE = Path(__file__).resolve().parents[3] / "resources" / "examples" / "triad.triadic.json"


def hand_built() -> Workflow:
    wf = Workflow("Hand built", id="wf-1", description="Plan → do → review, with ünïcode ✓")
    wf.settings = RunSettings(Budget(1000, 0.5, 30.0, 12), concurrency=3, seed=7)
    wf.add_node(Node("in", "input", "Goal", {"name": "goal", "default": "tea"}, NodeUi(0.0, 10.5)))
    wf.add_node(Node("plan", "planner", "Plan", {"model": "sim/default", "max_replans": 1,
                                                  "sim": {"latency_ms": 5, "faults": [1, 2]}},
                     NodeUi(200.0, 0.0, "#ff8800", True)))
    wf.add_node(Node("do", "executor", "Do", {"tools": ["search"], "temperature": 0.25}, NodeUi(400.0, 0.0)))
    wf.add_node(Node("rev", "critic", "Review", {}, NodeUi(600.0, 0.0)))
    wf.add_node(Node("out", "output", "", {"name": "result"}, NodeUi(800.0, 0.0)))
    for i, (s, sp, t, tp) in enumerate([("in", "value", "plan", "goal"), ("plan", "plan", "do", "task"),
                                        ("do", "result", "rev", "subject"), ("rev", "verdict", "do", "feedback"),
                                        ("rev", "approved", "out", "value")], start=1):
        wf.add_edge(Edge(f"e{i}", s, sp, t, tp))
    wf.ui = {"viewport": {"zoom": 1.5, "x": -20}, "comments": [{"text": "hi", "x": 1}]}
    return wf


def assert_model_equal(a: Workflow, b: Workflow) -> None:
    assert (a.id, a.name, a.description) == (b.id, b.name, b.description)
    assert a.settings == b.settings
    assert a.nodes == b.nodes
    assert list(a.nodes) == list(b.nodes)
    assert a.edges == b.edges
    assert a.ui == b.ui


@pytest.mark.parametrize("make", [hand_built, lambda: generate_workflow(300, seed=3), lambda: Workflow()])
def test_save_load_round_trip_is_exact(tmp_path: Path, make) -> None:
    wf = make()
    path = tmp_path / "wf.triadic.json"
    save_workflow(wf, path)
    first = path.read_bytes()
    loaded = load_workflow(path)
    assert_model_equal(wf, loaded)
    save_workflow(loaded, path)
    assert path.read_bytes() == first
    assert first.endswith(b"\n") and first.decode().startswith(
        f'{{\n  "format": "triadic.workflow",\n  "version": {FORMAT_VERSION},')


def test_example_file_round_trips_through_the_model() -> None:
    wf = load_workflow(EXAMPLE)
    again = loads_workflow(dumps_workflow(wf))
    assert_model_equal(wf, again)
    assert dumps_workflow(again) == dumps_workflow(wf)


def test_output_is_deterministic_whatever_the_param_insertion_order() -> None:
    a, b = hand_built(), hand_built()
    b.nodes["plan"].params = dict(reversed(list(b.nodes["plan"].params.items())))
    assert dumps_workflow(a) == dumps_workflow(b)
    assert json.loads(dumps_workflow(a))["version"] == FORMAT_VERSION


def test_params_are_saved_exactly_as_the_model_holds_them() -> None:
    data = workflow_to_dict(hand_built())
    by_id = {n["id"]: n for n in data["nodes"]}
    assert by_id["rev"]["params"] == {}  # defaults are not added
    assert by_id["do"]["params"] == {"temperature": 0.25, "tools": ["search"]}


def test_from_dict_keeps_no_reference_to_the_callers_data() -> None:
    data = workflow_to_dict(hand_built())
    wf = workflow_from_dict(data)
    wf.nodes["plan"].params["sim"]["latency_ms"] = 99
    assert data["nodes"][1]["params"]["sim"]["latency_ms"] == 5


def test_hash_ignores_canvas_data_and_order_but_not_what_the_engine_uses() -> None:
    wf = hand_built()
    base = workflow_hash(wf)
    assert len(base) == 64
    wf.move_node("do", 1234.0, -5.0)
    wf.set_node_ui("rev", color="#00ff00", collapsed=True)
    wf.set_ui("viewport", {"zoom": 3})
    wf.set_meta(name="Renamed")
    assert workflow_hash(wf) == base
    wf.set_param("do", "temperature", 0.3)
    assert workflow_hash(wf) != base
    wf.set_param("do", "temperature", 0.25)
    wf.remove_edge("e5")
    assert workflow_hash(wf) != base


def test_unserializable_param_fails_the_save_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    before = path.read_bytes()
    wf = hand_built()
    wf.set_param("do", "tools", {"a set": {1, 2}})
    with pytest.raises(WorkflowFileError) as info:
        save_workflow(wf, path)
    assert "Executor 'Do' (do)" in str(info.value) and "set" in str(info.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wf.triadic.json"]


def test_nan_param_is_refused_on_save() -> None:
    wf = hand_built()
    wf.set_param("do", "temperature", float("nan"))
    with pytest.raises(WorkflowFileError, match="finite"):
        dumps_workflow(wf)


def test_a_write_failure_mid_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    before = path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("engine.graph.format.os.fsync", broken_fsync)
    with pytest.raises(WorkflowFileError, match="cannot be written"):
        save_workflow(generate_workflow(20), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["wf.triadic.json"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_fails_the_save_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    before = path.read_bytes()
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(WorkflowFileError):
            save_workflow(generate_workflow(10), path)
    finally:
        tmp_path.chmod(0o755)
    assert path.read_bytes() == before


def test_save_into_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WorkflowFileError, match="cannot be written"):
        save_workflow(hand_built(), tmp_path / "nope" / "wf.triadic.json")


def test_save_keeps_the_file_mode_and_loading_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    path.chmod(0o640)
    save_workflow(hand_built(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    path.chmod(0o440)
    mtime = path.stat().st_mtime_ns
    load_workflow(path)
    assert path.stat().st_mtime_ns == mtime


def test_secret_param_is_refused_on_save_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    before = path.read_bytes()
    wf = hand_built()
    wf.set_param("do", "api_key", "abc")
    with pytest.raises(WorkflowFileError) as info:
        save_workflow(wf, path)
    message = str(info.value)
    assert "'api_key'" in message and "Executor 'Do' (do)" in message and "keys never go in workflow files" in message
    assert info.value.problems[0].code == "secret_param"
    assert path.read_bytes() == before


@pytest.mark.parametrize("params", [{"sim": {"headers": {"Authorization": "Bearer x"}}},
                                    {"system_prompt": "use sk-abcdefghijklmnopqrstuvwxyz123456"},
                                    {"password": ""}])
def test_secrets_are_found_inside_values_and_nested_params(params: dict[str, object]) -> None:
    wf = hand_built()
    wf.nodes["do"].params.update(params)
    with pytest.raises(WorkflowFileError, match="holds a secret"):
        dumps_workflow(wf)


def test_token_budget_params_are_not_mistaken_for_secrets() -> None:
    wf = hand_built()
    wf.set_param("do", "max_tokens_budget", 100)
    wf.set_param("do", "sim", {"tokens_per_s": 50})
    assert "max_tokens_budget" in dumps_workflow(wf)


def test_a_file_holding_a_key_is_refused_on_load() -> None:
    data = workflow_to_dict(hand_built())
    data["nodes"][2]["params"]["openai_api_key"] = "x"
    with pytest.raises(WorkflowFileError, match="openai_api_key"):
        workflow_from_dict(data)


def test_what_a_load_would_refuse_is_refused_on_save() -> None:
    wf = hand_built()
    wf.set_title("do", "t" * 2000)
    with pytest.raises(WorkflowFileError) as info:
        dumps_workflow(wf)
    assert info.value.problems[0].field == "nodes[2].title"
    wf = hand_built()
    deep: list[object] = []
    for _ in range(200):
        deep = [deep]
    wf.set_param("do", "sim", {"deep": deep})
    with pytest.raises(WorkflowFileError, match="nested more than 100 levels"):
        dumps_workflow(wf)
    wf = hand_built()
    wf.settings.concurrency = "many"  # type: ignore[assignment]
    with pytest.raises(WorkflowFileError, match=r"settings\.concurrency"):
        dumps_workflow(wf)


def test_a_refused_temp_file_fails_the_save_and_keeps_the_old_file(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "wf.triadic.json"
    save_workflow(hand_built(), path)
    before = path.read_bytes()

    def read_only_folder(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("engine.graph.format.os.open", read_only_folder)
    with pytest.raises(WorkflowFileError, match="Permission denied"):
        save_workflow(generate_workflow(10), path)
    assert path.read_bytes() == before
    with pytest.raises(WorkflowFileError, match="NUL"):
        save_workflow(hand_built(), str(tmp_path / "a\0b"))


def test_text_that_merely_contains_key_like_words_is_not_a_secret() -> None:
    wf = hand_built()
    wf.set_param("do", "prompt", "Run task-generate-the-final-report-now and ask-for-approval-from-the-owner")
    assert "task-generate" in dumps_workflow(wf)


def test_a_loaded_file_holds_each_id_and_port_name_once():
    """An edge's ends name nodes and ports the file repeats for every edge: once loaded they are the very
    strings the nodes hold (one object each), not a copy per mention."""
    from engine.graph.format import dumps_workflow, loads_workflow

    wf = Workflow("shared")
    for node_id in ("a", "b", "c"):
        wf.add_node(Node(node_id, "executor", node_id.upper()))
    wf.add_edge(Edge("e1", "a", "result", "b", "context"))
    wf.add_edge(Edge("e2", "a", "result", "c", "context"))
    wf.add_edge(Edge("e3", "b", "result", "c", "task"))
    loaded = loads_workflow(dumps_workflow(wf))
    e1, e2, e3 = (loaded.edges[i] for i in ("e1", "e2", "e3"))
    assert e1.source is loaded.nodes["a"].id and e2.source is loaded.nodes["a"].id
    assert e3.source is loaded.nodes["b"].id and e1.target is loaded.nodes["b"].id
    assert e1.source_port is e2.source_port is e3.source_port
    assert e1.target_port is e2.target_port
