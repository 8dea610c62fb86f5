"""The inspector's contracts editor: shows the workflow's contracts, refuses malformed text with the
location of each problem (nothing sent, nothing typed lost), sends valid contracts, adds a kind, shows
the problems of what the contracts name, and follows the model."""

from __future__ import annotations

import json

from pytestqt.qtbot import QtBot

from engine.graph.contract_form import read_contracts
from engine.graph.format import workflow_from_dict
from tests.engine.contracts.contract_runs import example
from widgets.contracts import ContractsEditor


def _editor(qtbot: QtBot, name: str = "triad") -> ContractsEditor:
    editor = ContractsEditor(workflow_from_dict(example(name)))
    qtbot.addWidget(editor)
    return editor


def test_it_shows_the_workflows_contracts_as_their_file_form(qtbot: QtBot) -> None:
    editor = _editor(qtbot)
    assert json.loads(editor.text.toPlainText()) == example("triad")["contracts"]
    assert editor.message.text() == "6 contract(s)."


def test_malformed_text_is_refused_with_its_location_and_kept(qtbot: QtBot) -> None:
    editor = _editor(qtbot)
    sent: list[object] = []
    editor.contracts_change_requested.connect(sent.append)
    editor.text.setPlainText('[{"kind": "max_calls", "max_calls": 2.5}, {"kind": "max_cost", "max_cost": "x"}]')
    assert not editor.apply()
    assert editor.message.text() == ('contracts[0].max_calls: expected a whole number, not 2.5\n'
                                     'contracts[1].max_cost: expected a number, not "x"')
    editor.text.setPlainText('[{"kind": "max_calls",')
    assert not editor.apply() and editor.message.text().startswith("Not valid JSON: line 1, column")
    assert editor.text.toPlainText() == '[{"kind": "max_calls",' and sent == []


def test_valid_text_is_sent_and_add_appends_a_kind(qtbot: QtBot) -> None:
    editor = _editor(qtbot, "tools")
    sent: list[object] = []
    editor.contracts_change_requested.connect(sent.append)
    editor.text.setPlainText('{"kind": "max_duration", "max_seconds": 30}')
    assert editor.apply()
    assert sent[-1] == tuple(read_contracts([{"kind": "max_duration", "max_seconds": 30}])[0])
    editor.kind_box.setCurrentIndex(editor.kind_box.findData("gated_tool_writes"))
    editor.add_button.click()
    added = sent[-1]
    assert isinstance(added, tuple) and [c.kind for c in added] == ["max_duration", "gated_tool_writes"]
    assert added[1].tools == ("calculator",)  # the tool the workflow's solver may call


def test_it_follows_the_model_and_names_what_the_contracts_lack(qtbot: QtBot) -> None:
    editor = _editor(qtbot)
    contracts, _ = read_contracts([{"kind": "max_calls", "max_calls": 1, "nodes": ["ghost"]}])
    editor.workflow.set_contracts(tuple(contracts))
    editor.refresh()
    assert json.loads(editor.text.toPlainText()) == [{"kind": "max_calls", "max_calls": 1, "nodes": ["ghost"]}]
    assert "names a node 'ghost' the workflow does not have" in editor.message.text()
