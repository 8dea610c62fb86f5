"""Keys go only where they belong (issue 14): a provider's key to its own hosts, a server's stored key
to that server, never a key over plain http to another machine; and the key-management API."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from engine.llm.endpoints import is_loopback, is_provider_host, normalize_server
from engine.llm.gateway import Gateway
from engine.llm.keys import (
    NO_KEY_PLACEHOLDER,
    KeyResolver,
    KeyStoreError,
    delete_key,
    keyring_problem,
    list_keys,
    store_key,
)
from engine.llm.prices import PriceTable
from engine.llm.retry import Backoff
from engine.llm.types import AuthenticationError, LLMRequest

ENV_SECRET = "sk-env-OPENAI-0123456789abcdefSECRET"
SERVER_SECRET = "sk-server-ffeeddccbbaa99887766"


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def _gateway() -> Gateway:
    return Gateway(prices=PriceTable({}), backoff=Backoff(base_s=0.01, cap_s=0.02))


def _request(url: str) -> LLMRequest:
    return LLMRequest(model="openai/gpt-4o-mini", messages=[{"role": "user", "content": "hi"}], api_base=url,
                      timeout_s=5.0, retries=0, stream=False)


@pytest.mark.asyncio
async def test_a_workflows_api_base_never_gets_the_providers_key(fake_openai, memory_keyring: MemoryKeyring,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack: openai/... with a node's api_base pointing elsewhere sent OPENAI_API_KEY there."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_SECRET)
    await _gateway().complete(_request(fake_openai.url))
    sent = json.dumps(fake_openai.requests)
    assert ENV_SECRET not in sent
    assert fake_openai.requests[0]["headers"]["authorization"] == f"Bearer {NO_KEY_PLACEHOLDER}"


@pytest.mark.asyncio
async def test_a_key_stored_for_the_server_is_sent_to_it_only(fake_openai, memory_keyring: MemoryKeyring,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_SECRET)
    store_key(fake_openai.url + "/", SERVER_SECRET)  # a trailing slash names the same server
    await _gateway().complete(_request(fake_openai.url))
    assert fake_openai.requests[0]["headers"]["authorization"] == f"Bearer {SERVER_SECRET}"
    assert ENV_SECRET not in json.dumps(fake_openai.requests)


@pytest.mark.asyncio
async def test_plain_http_to_another_machine_with_a_key_is_refused(memory_keyring: MemoryKeyring) -> None:
    remote = "http://10.255.255.1:8000/v1"
    store_key(remote, SERVER_SECRET)
    with pytest.raises(AuthenticationError) as caught:
        await _gateway().complete(_request(remote))  # refused before any connection is tried
    assert "plain http" in str(caught.value) and SERVER_SECRET not in str(caught.value)
    problem = _gateway().missing_key("openai/gpt-4o-mini", remote)  # the run's preflight says it first
    assert problem is not None and "plain http" in problem
    assert _gateway().missing_key("openai/gpt-4o-mini", "http://127.0.0.1:9/v1") is None
    assert _gateway().missing_key("openai/gpt-4o-mini", "http://10.255.255.2/v1") is None  # no key: allowed


def test_a_providers_key_goes_to_its_own_https_hosts_only() -> None:
    keys = KeyResolver(environ={"OPENAI_API_KEY": ENV_SECRET}, keyring_get=None)
    assert keys.for_call("openai", "m", None) == ENV_SECRET
    assert keys.for_call("openai", "m", "https://api.openai.com/v1") == ENV_SECRET
    for elsewhere in ("https://api.openai.com.evil.example/v1", "http://api.openai.com/v1",
                      "https://evil.example/api.openai.com", "https://user@evil.example/v1"):
        assert keys.for_call("openai", "m", elsewhere) == NO_KEY_PLACEHOLDER, elsewhere
    assert is_provider_host("azure", "https://mine.openai.azure.com/")
    assert not is_provider_host("azure", "https://openai.azure.com.evil.example/")
    assert is_loopback("http://localhost:11434") and is_loopback("http://[::1]:8000/v1")
    assert not is_loopback("http://127.0.0.1.evil.example/")
    assert normalize_server("HTTPS://Host.Example:443/v1/") == "https://host.example/v1"


def test_the_management_api_lists_stores_and_deletes_without_showing_keys(
        memory_keyring: MemoryKeyring, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    store_key("anthropic", "sk-ant-stored-abcdef0123")
    store_key("https://llm.example.com/v1", SERVER_SECRET)
    statuses = list_keys(["http://localhost:8000/v1"], environ={"OPENAI_API_KEY": ENV_SECRET})
    by_target = {s.target: s for s in statuses}
    assert by_target["openai"].is_set and by_target["openai"].source == "environment"
    assert by_target["anthropic"].source == "keyring" and by_target["anthropic"].env_var == "ANTHROPIC_API_KEY"
    assert not by_target["groq"].is_set
    assert by_target["https://llm.example.com/v1"].is_set and by_target["https://llm.example.com/v1"].kind == "server"
    assert not by_target["http://localhost:8000/v1"].is_set
    shown = repr(statuses) + caplog.text
    assert ENV_SECRET not in shown and SERVER_SECRET not in shown and "sk-ant-stored" not in shown
    delete_key("https://llm.example.com/v1")
    delete_key("https://llm.example.com/v1")  # twice: nothing to do
    assert "https://llm.example.com/v1" not in {s.target for s in list_keys(environ={})}
    with pytest.raises(KeyStoreError):
        store_key("openai/../x", "k")
    with pytest.raises(KeyStoreError):
        store_key("ftp://host", "k")


def test_without_an_os_keyring_storing_says_so() -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        assert keyring_problem() is not None
        with pytest.raises(KeyStoreError, match="no OS keyring"):
            store_key("openai", "sk-whatever-123456789")
    finally:
        keyring.set_keyring(previous)


def test_a_run_against_a_server_with_a_stored_key_records_no_key(
        fake_openai, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    from engine.runtime import execute
    from engine.store import TraceStore
    from tests.engine.runtime.fakes import chain

    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("OPENAI_API_KEY", ENV_SECRET)
    store_key(fake_openai.url, SERVER_SECRET)
    workflow = chain(1)
    workflow.set_param("x0", "model", "openai/gpt-4o-mini")
    workflow.set_param("x0", "api_base", fake_openai.url)
    path = tmp_path / "keys.db"
    with TraceStore(path) as store:
        result = asyncio.run(execute(workflow, gateway=_gateway(), store=store))
        assert result.status == "succeeded", result
        events = json.dumps([e.to_record() for e in store.iter_events(result.run_id)], default=str)
    assert fake_openai.requests[0]["headers"]["authorization"] == f"Bearer {SERVER_SECRET}"
    blob = b"".join(p.read_bytes() for p in tmp_path.glob("keys.db*"))
    for secret in (ENV_SECRET, SERVER_SECRET):
        assert secret not in events and secret not in caplog.text and secret.encode() not in blob
