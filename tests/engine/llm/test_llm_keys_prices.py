"""API key resolution (env, keyring, failing keyring), redaction, the user price table, token counts."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringError

from engine.llm.gateway import Gateway
from engine.llm.keys import KEYRING_SERVICE, KeyResolver, redact
from engine.llm.prices import PriceTable, bundled_price
from engine.llm.retry import Backoff
from engine.llm.types import AuthenticationError, LLMRequest


class FakeKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self, store: dict[tuple[str, str], str] | None = None, broken: bool = False) -> None:
        super().__init__()
        self.store = store or {}
        self.broken = broken

    def get_password(self, service: str, username: str) -> str | None:
        if self.broken:
            raise KeyringError("no backend available")
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.store.pop((service, username), None)


@pytest.fixture
def fake_keyring() -> FakeKeyring:
    previous = keyring.get_keyring()
    backend = FakeKeyring({(KEYRING_SERVICE, "anthropic"): "sk-ant-from-keyring-123456"})
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_environment_wins_over_keyring(fake_keyring: FakeKeyring) -> None:
    resolver = KeyResolver(environ={"ANTHROPIC_API_KEY": "sk-ant-env-abcdef123"})
    assert resolver.get("anthropic") == "sk-ant-env-abcdef123"
    assert KeyResolver(environ={}).get("anthropic") == "sk-ant-from-keyring-123456"


def test_broken_keyring_falls_back_to_environment(fake_keyring: FakeKeyring) -> None:
    fake_keyring.broken = True
    assert KeyResolver(environ={}).get("anthropic") is None
    assert KeyResolver(environ={"ANTHROPIC_API_KEY": "k-123456"}).get("anthropic") == "k-123456"


@pytest.mark.asyncio
async def test_missing_key_names_the_variable_to_set(fake_keyring: FakeKeyring) -> None:
    gateway = Gateway(keys=KeyResolver(environ={}), backoff=Backoff(0.0, 0.0))
    with pytest.raises(AuthenticationError) as caught:
        await gateway.complete(LLMRequest(model="openai/gpt-4o-mini", messages=[{"role": "user", "content": "x"}]))
    assert "OPENAI_API_KEY" in str(caught.value) and caught.value.provider == "openai"


def test_redact_removes_given_secrets_and_key_shaped_strings() -> None:
    text = "key=abc123SECRETxyz, header Bearer tok_abcdefgh1234, openai sk-proj-ABCDEFGH12345678 ok"
    clean = redact(text, ["abc123SECRETxyz"])
    for secret in ("abc123SECRETxyz", "tok_abcdefgh1234", "sk-proj-ABCDEFGH12345678"):
        assert secret not in clean
    assert clean.endswith(" ok") and "[REDACTED]" in clean


def test_price_table_loads_from_file_and_reports_bad_entries(tmp_path: Path) -> None:
    good = tmp_path / "prices.json"
    good.write_text(json.dumps({"my-model": {"input_cost_per_token": 1e-6, "output_cost_per_token": 3e-6}}))
    table = PriceTable.load(good)
    assert table.cost("openai/my-model", 10, 10) == pytest.approx(4e-5)
    assert table.cost("other", 1, 1) is None
    assert PriceTable.load(tmp_path / "missing.json").prices == {}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"m": {"input_cost_per_token": "lots"}}))
    with pytest.raises(ValueError, match=r"bad\.json.*'m'"):
        PriceTable.load(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match="line 1"):
        PriceTable.load(broken)


def test_user_price_file_lives_in_the_user_config_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_config_dir", lambda app: str(tmp_path / app))
    (tmp_path / "triadic").mkdir()
    (tmp_path / "triadic" / "prices.json").write_text(
        json.dumps({"x": {"input_cost_per_token": 1, "output_cost_per_token": 2}}))
    assert PriceTable.load_user().cost("x", 1, 1) == 3


def test_bundled_price_matches_litellm_without_importing_it() -> None:
    price = bundled_price("gpt-4o-mini")
    assert price is not None and price.input_per_token > 0
    assert bundled_price("no-such-model-anywhere") is None


def test_token_counts_match_litellm_token_counter() -> None:
    import litellm

    from engine.llm.tokens import count_messages, count_text

    messages = [{"role": "system", "content": "You are a careful planner."},
                {"role": "user", "content": "Plan a week in Rome, with museums; and a budget!", "name": "ann"}]
    for model in ("sim/default", "gpt-4o-mini", "gpt-4"):
        assert count_messages(messages, model) == litellm.token_counter(model=model, messages=messages)
        assert count_text("déjà vu, 12345 tokens?", model) == litellm.token_counter(model=model,
                                                                                    text="déjà vu, 12345 tokens?")


def test_backoff_grows_exponentially_with_bounded_jitter() -> None:
    import random

    backoff = Backoff(base_s=1.0, cap_s=8.0, jitter=0.5)
    rng = random.Random(0)
    for attempt, nominal in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (6, 8.0)):
        delays = [backoff.delay(attempt, rng) for _ in range(50)]
        assert all(nominal * 0.5 <= d <= nominal * 1.5 for d in delays)
        assert len(set(delays)) > 1
