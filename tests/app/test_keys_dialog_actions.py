"""Before a run: a plan whose models have their keys starts at once; one that lacks a key asks for it
in the missing-keys dialog (awaited, never exec'd) and starts only once it is stored."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.keys_dialog_actions import ensure_keys, open_keys_dialog
from engine.llm.gateway import Gateway
from engine.runtime import compile_workflow
from tests.engine.runtime.fakes import build
from tests.widgets.memory_keyring import MemoryKeyring
from tests.widgets.qt_loop import qt_loop_fixture, until
from widgets.keys import KeysDialog, MissingKeysDialog

_loop = pytest.fixture(name="qt_loop")(qt_loop_fixture)


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def _plan(model: str) -> Any:
    return compile_workflow(build([("goal", "input", {"name": "goal"}), ("executor", "executor", {"model": model}),
                                   ("result", "output", {})], ["goal.value->executor.task", "executor.result->result.value"]))


def test_a_plan_with_its_keys_starts_at_once(qt_loop: Any, memory_keyring: MemoryKeyring) -> None:
    window = QWidget()
    assert qt_loop.run_until_complete(ensure_keys(window, _plan("sim/default"), {}, Gateway())) is True
    assert window.findChild(MissingKeysDialog) is None


def test_a_missing_key_is_asked_for_and_the_run_starts_once_stored(qtbot: QtBot, qt_loop: Any,
                                                                   memory_keyring: MemoryKeyring) -> None:
    window = QWidget()
    qtbot.addWidget(window)

    async def scenario() -> tuple[bool, bool]:
        import asyncio

        cancelled = asyncio.ensure_future(ensure_keys(window, _plan("openai/gpt-4o-mini"), {}, Gateway()))
        await until(lambda: window.findChild(MissingKeysDialog) is not None)
        window.findChild(MissingKeysDialog).reject()
        first = await cancelled
        await until(lambda: window.findChild(MissingKeysDialog) is None)
        answered = asyncio.ensure_future(ensure_keys(window, _plan("openai/gpt-4o-mini"), {}, Gateway()))
        await until(lambda: window.findChild(MissingKeysDialog) is not None)
        dialog = window.findChild(MissingKeysDialog)
        qtbot.keyClicks(dialog.fields["openai"], "sk-test-actions0123456789")
        dialog.store_buttons["openai"].click()
        await until(lambda: dialog.ready)
        dialog.start_button.click()
        return first, await answered

    assert qt_loop.run_until_complete(scenario()) == (False, True)
    assert memory_keyring.data == {("triadic", "openai"): "sk-test-actions0123456789"}


def test_settings_opens_one_keys_dialog(qtbot: QtBot, qt_loop: Any, memory_keyring: MemoryKeyring) -> None:
    window = QWidget()
    qtbot.addWidget(window)

    async def scenario() -> tuple[KeysDialog, KeysDialog]:
        first = open_keys_dialog(window)
        await until(lambda: first.model.rowCount() > 0)
        return first, open_keys_dialog(window)

    first, second = qt_loop.run_until_complete(scenario())
    assert (first is second and first.isVisible() and not first.isModal()) or first.windowModality() is not None
