"""`triadic keys`: list / set / delete keys of providers and servers without ever printing a key."""

from __future__ import annotations

import io
from collections.abc import Iterator

import keyring
import pytest

from app.cli.main import main
from tests.engine.llm.test_llm_key_routing import MemoryKeyring

SECRET = "sk-cli-server-0123456789abcdef"


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_set_list_delete_a_server_key(memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SECRET + "\n"))
    assert main(["keys", "set", "https://LLM.example.com/v1/"]) == 0
    assert memory_keyring.store[("triadic", "server:https://llm.example.com/v1")] == SECRET
    assert main(["keys"]) == 0
    listed = capsys.readouterr().out
    assert "https://llm.example.com/v1" in listed and "keyring" in listed and SECRET not in listed
    assert main(["keys", "delete", "https://llm.example.com/v1"]) == 0
    assert ("triadic", "server:https://llm.example.com/v1") not in memory_keyring.store
    assert main(["keys", "set", "ftp://nope"]) == 2
