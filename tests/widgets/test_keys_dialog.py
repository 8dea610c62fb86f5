"""Models & keys: a key entered in the dialog lands in the keyring (a test backend), never on screen,
in the store or a trace; "Test this key" against a scripted OpenAI-compatible server reports OK and
a 401 clearly (scrubbed); the missing-keys dialog names what a run needs and says when it can start."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from memory_keyring import MemoryKeyring
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot
from qt_loop import qt_loop_fixture, until

from engine.graph.format import load_workflow
from engine.llm.gateway import Gateway
from engine.llm.sim import SimGateway
from engine.projection import RunProjection
from engine.runtime import compile_workflow
from engine.runtime.launch import follow, start_run
from engine.runtime.preflight import missing_keys
from engine.store import TraceStore
from tests.engine.llm.conftest import FakeOpenAI, serve_fake_openai
from tests.engine.runtime.fakes import build
from widgets.keys import KeysDialog, MissingKeysDialog
from widgets.keys.key_access import ENVIRONMENT, KEYRING, MISSING

_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)
SECRET = "sk-test-PANELsecret0123456789abcdef"
EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def fake_server() -> Iterator[FakeOpenAI]:
    with serve_fake_openai() as state:
        yield state


def _source(dialog: KeysDialog, provider: str) -> str:
    return str(dialog.model.index(dialog.model.row_of(provider), 2).data())


def _shown_text(widget: Any) -> str:
    return " ".join(label.text() for label in widget.findChildren(QLabel))


async def _dialog(qtbot: QtBot) -> KeysDialog:
    dialog = KeysDialog()
    qtbot.addWidget(dialog)
    dialog.open()
    await until(lambda: dialog.model.rowCount() > 0, what="the providers listed")
    return dialog


def test_a_stored_key_lands_in_the_keyring_and_is_never_shown(qtbot: QtBot, qt_loop: Any,
                                                               memory_keyring: MemoryKeyring,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment-123456")

    async def scenario() -> KeysDialog:
        dialog = await _dialog(qtbot)
        assert _source(dialog, "openai") == MISSING and _source(dialog, "anthropic") == ENVIRONMENT
        dialog.select_target("openai")
        assert not dialog.store_button.isEnabled() and not dialog.remove_button.isEnabled()
        qtbot.keyClicks(dialog.key_edit, SECRET)
        assert dialog.key_edit.echoMode() == dialog.key_edit.EchoMode.Password
        changed: list[bool] = []
        dialog.keys_changed.connect(lambda: changed.append(True))
        dialog.store_button.click()
        await until(lambda: changed, what="the key stored")
        assert memory_keyring.data == {("triadic", "openai"): SECRET}
        assert _source(dialog, "openai") == KEYRING and dialog.key_edit.text() == ""
        assert SECRET not in _shown_text(dialog)
        cells = [dialog.model.index(r, c).data() for r in range(dialog.model.rowCount()) for c in range(3)]
        assert SECRET not in " ".join(map(str, cells))
        assert dialog.remove_button.isEnabled()
        dialog.remove_button.click()
        await until(lambda: len(changed) == 2, what="the key removed")
        assert memory_keyring.data == {} and _source(dialog, "openai") == MISSING
        return dialog

    qt_loop.run_until_complete(scenario())


def test_a_key_in_the_keyring_never_reaches_the_store(qtbot: QtBot, qt_loop: Any, memory_keyring: MemoryKeyring,
                                                      tmp_path: Path) -> None:
    async def scenario() -> None:
        dialog = await _dialog(qtbot)
        dialog.select_target("openai")
        qtbot.keyClicks(dialog.key_edit, SECRET)
        changed: list[bool] = []
        dialog.keys_changed.connect(lambda: changed.append(True))
        dialog.store_button.click()
        await until(lambda: changed)
        store = TraceStore(tmp_path / "trace.db")
        plan = compile_workflow(load_workflow(EXAMPLES / "triad.triadic.json"), base_dir=EXAMPLES)
        run = start_run(plan, store=store, gateway=SimGateway(), model_overrides=None)
        projection = RunProjection()
        await follow(run, projection)
        store.close()

    qt_loop.run_until_complete(scenario())
    assert memory_keyring.data[("triadic", "openai")] == SECRET
    for path in tmp_path.iterdir():  # the database and its WAL / shared-memory files
        assert SECRET.encode() not in path.read_bytes()


def test_test_this_key_reports_ok_and_a_clear_401(qtbot: QtBot, qt_loop: Any, memory_keyring: MemoryKeyring,
                                                   fake_server: FakeOpenAI) -> None:
    async def scenario() -> list[tuple[bool, str]]:
        dialog = await _dialog(qtbot)
        qtbot.keyClicks(dialog.server_edit, fake_server.url + "/")
        dialog.add_server_button.click()
        address = fake_server.url.rstrip("/")
        await until(lambda: dialog.model.row_of(address) >= 0, what="the server listed")
        state = dialog.selected_state()
        assert state is not None and state.target == address and state.kind == "server"
        assert _source(dialog, address) == MISSING
        results: list[tuple[bool, str]] = []
        dialog.test_finished.connect(lambda ok, message: results.append((ok, message)))
        qtbot.keyClicks(dialog.key_edit, SECRET)
        assert dialog.model_combo.currentText() == "openai/"
        dialog.model_combo.setCurrentText("openai/gpt-4o-mini")
        dialog.test_button.click()
        await until(lambda: results, timeout_s=60, what="the test call")
        assert dialog.status.text().startswith("✔ OK")
        fake_server.script.append(401)
        dialog.test_button.click()
        await until(lambda: len(results) == 2, timeout_s=60, what="the failing test call")
        assert SECRET not in dialog.status.text() and dialog.status.text().startswith("✘ ")
        return results

    results = qt_loop.run_until_complete(scenario())
    assert results[0][0] is True and "OK" in results[0][1]
    ok, message = results[1]
    assert ok is False and "AuthenticationError" in message and "Incorrect API key" in message
    assert SECRET not in message
    sent = fake_server.requests[0]
    assert sent["body"]["max_tokens"] == 1 and sent["headers"]["authorization"] == f"Bearer {SECRET}"
    assert memory_keyring.data == {}  # testing a typed key does not store it


def test_a_server_gets_a_key_of_its_own(qtbot: QtBot, qt_loop: Any, memory_keyring: MemoryKeyring) -> None:
    server = "https://llm.example.com/v1"

    async def scenario() -> KeysDialog:
        dialog = await _dialog(qtbot)
        qtbot.keyClicks(dialog.server_edit, "ftp://nowhere")
        dialog.add_server_button.click()
        assert "not an http:// or https:// server address" in dialog.status.text()
        dialog.server_edit.setText("http://10.1.2.3:8000/v1")
        dialog.add_server_button.click()
        assert "never sends a key there" in dialog.status.text()
        dialog.server_edit.setText("HTTPS://LLM.example.com:443/v1/")
        dialog.add_server_button.click()
        await until(lambda: dialog.model.row_of(server) >= 0, what="the server listed")
        assert dialog.model.index(dialog.model.row_of(server), 1).data().startswith("—")
        qtbot.keyClicks(dialog.key_edit, SECRET)
        changed: list[bool] = []
        dialog.keys_changed.connect(lambda: changed.append(True))
        dialog.store_button.click()
        await until(lambda: changed, what="the server's key stored")
        assert _source(dialog, server) == KEYRING and _source(dialog, "openai") == MISSING
        assert SECRET not in _shown_text(dialog)
        return dialog

    qt_loop.run_until_complete(scenario())
    assert memory_keyring.data[("triadic", f"server:{server}")] == SECRET
    assert ("triadic", "openai") not in memory_keyring.data

    async def reopened() -> None:  # a stored server is listed without being added again
        dialog = await _dialog(qtbot)
        assert _source(dialog, server) == KEYRING

    qt_loop.run_until_complete(reopened())


def test_missing_keys_dialog_names_the_need_and_says_when_the_run_can_start(
        qtbot: QtBot, qt_loop: Any, memory_keyring: MemoryKeyring) -> None:
    wf = build([("goal", "input", {"name": "goal"}), ("executor", "executor", {"model": "openai/gpt-4o-mini"}),
                ("critic", "critic", {"model": "groq/llama-3.1-8b-instant"}), ("result", "output", {})],
               ["goal.value->executor.task", "executor.result->critic.subject", "critic.approved->result.value"])
    plan = compile_workflow(wf)

    def recheck() -> list[str]:
        return missing_keys(plan, {}, Gateway())

    problems = recheck()
    assert len(problems) == 2

    async def scenario() -> MissingKeysDialog:
        dialog = MissingKeysDialog(problems, recheck)
        qtbot.addWidget(dialog)
        dialog.open()
        assert set(dialog.fields) == {"openai", "groq"} and not dialog.start_button.isEnabled()
        assert "OPENAI_API_KEY" in _shown_text(dialog) and "Executor" in _shown_text(dialog)
        stored: list[bool] = []
        dialog.keys_stored.connect(lambda: stored.append(True))
        qtbot.keyClicks(dialog.fields["openai"], SECRET)
        dialog.store_buttons["openai"].click()
        await until(lambda: stored)
        assert not dialog.ready and "still missing groq" in dialog.status.text()
        qtbot.keyClicks(dialog.fields["groq"], "gsk_groqkey0123456789")
        dialog.store_buttons["groq"].click()
        await until(lambda: len(stored) == 2)
        await asyncio.sleep(0)
        return dialog

    dialog = qt_loop.run_until_complete(scenario())
    assert dialog.ready and dialog.start_button.isEnabled() and "can start now" in dialog.status.text()
    assert memory_keyring.data == {("triadic", "openai"): SECRET, ("triadic", "groq"): "gsk_groqkey0123456789"}
    assert SECRET not in _shown_text(dialog)
