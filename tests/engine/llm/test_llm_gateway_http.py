"""The real litellm HTTP path against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import time

import pytest

from engine.llm.gateway import Gateway
from engine.llm.keys import KeyResolver
from engine.llm.prices import PriceTable
from engine.llm.retry import Backoff
from engine.llm.types import (
    AuthenticationError,
    LLMRequest,
    LLMTimeoutError,
    ProviderUnavailableError,
    RateLimitedError,
)

SECRET = "sk-test-SECRETvalue0123456789abcdef"
REPLY = "Hello from the fake server."
MESSAGES = [{"role": "user", "content": "Say hello."}]


def _server_keyring(service: str, user: str) -> str | None:
    """A keyring holding SECRET for every server (the person stored a key for the fake server)."""
    return SECRET if user.startswith("server:http://127.0.0.1") else None


def _gateway(prices: PriceTable | None = None) -> Gateway:
    keys = KeyResolver(environ={"OPENAI_API_KEY": "sk-env-NOT-for-servers-0123456789"}, keyring_get=_server_keyring)
    return Gateway(keys=keys, prices=prices, backoff=Backoff(base_s=0.01, cap_s=0.02))


def _request(url: str, **kw: object) -> LLMRequest:
    fields: dict[str, object] = {"model": "openai/gpt-4o-mini", "messages": MESSAGES, "api_base": url,
                                 "timeout_s": 5.0, "retries": 2}
    fields.update(kw)
    return LLMRequest(**fields)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_plain_call_returns_content_usage_and_litellm_price(fake_openai) -> None:
    import litellm

    response = await _gateway().complete(_request(fake_openai.url, stream=False))
    assert response.content == REPLY
    assert (response.tokens_in, response.tokens_out) == (11, 7)
    assert response.provider == "openai" and response.priced
    cost_in, cost_out = litellm.cost_per_token(model="gpt-4o-mini", prompt_tokens=11, completion_tokens=7)
    assert response.cost_usd == pytest.approx(cost_in + cost_out)
    assert fake_openai.requests[0]["path"].endswith("/chat/completions")


@pytest.mark.asyncio
async def test_streaming_passes_every_delta_and_takes_usage_from_the_stream(fake_openai) -> None:
    deltas: list[str] = []
    response = await _gateway().complete(_request(fake_openai.url), deltas.append)
    assert "".join(deltas).strip() == REPLY
    assert len(deltas) == len(REPLY.split(" "))
    assert response.content.strip() == REPLY
    assert (response.tokens_in, response.tokens_out) == (11, 7)
    body = fake_openai.requests[0]["body"]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert "metadata" not in body  # request metadata never reaches a remote API


class _Receiver:
    """A delta callback that also hears stream restarts."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, text: str) -> None:
        self.seen.append(text)

    def restart(self, attempt: int) -> None:
        self.seen.append(f"<restart {attempt}>")

    def retrying(self, attempt: int, error: Exception, delay_s: float) -> None:
        self.seen.append(f"<retry {attempt} {type(error).__name__}>")


@pytest.mark.asyncio
async def test_a_stream_cut_by_its_timeout_is_retried_and_the_restart_announced(fake_openai) -> None:
    fake_openai.script[:] = ["stall"]
    receiver = _Receiver()
    response = await _gateway().complete(_request(fake_openai.url, timeout_s=0.5), receiver)
    assert response.content.strip() == REPLY and len(fake_openai.requests) == 2
    assert receiver.seen[:4] == ["Hello ", "from ", "<retry 2 LLMTimeoutError>", "<restart 2>"]  # then notices
    assert "".join(receiver.seen[4:]).strip() == REPLY  # what follows is the retried attempt, whole
    plain: list[str] = []  # a callback without `restart` just sees the deltas (as before)
    fake_openai.script[:] = ["stall"]
    await _gateway().complete(_request(fake_openai.url, timeout_s=0.5), plain.append)
    assert "".join(plain).strip() == "Hello from " + REPLY


@pytest.mark.asyncio
async def test_rate_limit_is_retried_then_succeeds(fake_openai) -> None:
    fake_openai.script[:] = [429]
    receiver = _Receiver()
    response = await _gateway().complete(_request(fake_openai.url), receiver)
    assert response.content.strip() == REPLY
    assert len(fake_openai.requests) == 2
    assert receiver.seen[0] == "<retry 2 RateLimitedError>"  # the receiver hears of the retry first


@pytest.mark.asyncio
async def test_server_error_storm_gives_typed_error_after_all_attempts(fake_openai) -> None:
    fake_openai.script[:] = [500] * 10
    with pytest.raises(ProviderUnavailableError) as caught:
        await _gateway().complete(_request(fake_openai.url, retries=2))
    assert caught.value.attempts == 3 and len(fake_openai.requests) == 3
    assert caught.value.provider == "openai" and caught.value.model == "openai/gpt-4o-mini"
    assert caught.value.retryable


@pytest.mark.asyncio
async def test_rate_limit_storm_gives_rate_limited_error(fake_openai) -> None:
    fake_openai.script[:] = [429] * 10
    with pytest.raises(RateLimitedError):
        await _gateway().complete(_request(fake_openai.url, retries=1, stream=False))
    assert len(fake_openai.requests) == 2


@pytest.mark.asyncio
async def test_slow_server_times_out(fake_openai) -> None:
    fake_openai.script[:] = [3.0, 3.0]
    with pytest.raises(LLMTimeoutError) as caught:
        await _gateway().complete(_request(fake_openai.url, timeout_s=0.3, retries=1))
    assert caught.value.attempts == 2


@pytest.mark.asyncio
async def test_key_goes_in_the_auth_header_and_nowhere_else(fake_openai) -> None:
    request = _request(fake_openai.url)
    response = await _gateway().complete(request)
    assert fake_openai.requests[0]["headers"]["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in json.dumps(response.to_record()) and SECRET not in json.dumps(request.to_record())


@pytest.mark.asyncio
async def test_rejected_key_is_redacted_from_the_error(fake_openai) -> None:
    fake_openai.script[:] = [401]
    with pytest.raises(AuthenticationError) as caught:
        await _gateway().complete(_request(fake_openai.url, stream=False))
    error = caught.value
    assert fake_openai.requests[0]["headers"]["authorization"] == f"Bearer {SECRET}"
    assert len(fake_openai.requests) == 1  # auth errors are not retried
    for text in (str(error), error.reason, repr(error.args)):
        assert SECRET not in text
        assert SECRET[8:20] not in text
    assert "[REDACTED]" in str(error)
    assert "server:http://127.0.0.1" in str(error)  # the hint names the key that was sent


@pytest.mark.asyncio
async def test_unknown_model_on_custom_endpoint_falls_back_to_price_table(fake_openai) -> None:
    prices = PriceTable()
    prices.set("my-finetune-xyz", 1e-6, 2e-6)
    response = await _gateway(prices).complete(_request(fake_openai.url, model="openai/my-finetune-xyz"))
    assert response.priced and response.cost_usd == pytest.approx(11 * 1e-6 + 7 * 2e-6)


@pytest.mark.asyncio
async def test_unpriced_model_costs_zero_and_is_flagged(fake_openai) -> None:
    response = await _gateway().complete(_request(fake_openai.url, model="openai/never-heard-of-it"))
    assert response.cost_usd == 0.0 and response.priced is False
    assert response.to_record()["priced"] is False


@pytest.mark.asyncio
async def test_error_message_names_provider_model_and_cause(fake_openai) -> None:
    fake_openai.script[:] = [500] * 3
    with pytest.raises(ProviderUnavailableError) as caught:
        await _gateway().complete(_request(fake_openai.url, retries=0, stream=False))
    text = str(caught.value)
    assert text.startswith("openai/gpt-4o-mini: provider unavailable")
    assert "scripted 500" in text


@pytest.mark.asyncio
async def test_key_never_reaches_the_logs_even_at_debug_level(fake_openai, caplog) -> None:
    import logging

    caplog.set_level(logging.DEBUG)
    fake_openai.script[:] = [401]
    with pytest.raises(AuthenticationError) as caught:
        await _gateway().complete(_request(fake_openai.url, stream=False))
    await _gateway().complete(_request(fake_openai.url))
    assert caplog.records, "debug logging was captured"
    assert SECRET not in caplog.text
    assert SECRET not in "".join(str(a) for a in caught.value.args)


@pytest.mark.asyncio
async def test_openai_compatible_local_server_needs_no_key(fake_openai) -> None:
    gateway = Gateway(keys=KeyResolver(environ={}, keyring_get=None))
    response = await gateway.complete(_request(fake_openai.url, model="openai/qwen2.5:0.5b"))
    assert response.content.strip() == REPLY
    assert fake_openai.requests[0]["body"]["model"] == "qwen2.5:0.5b"
    assert response.priced is False  # a local model litellm does not price


@pytest.mark.asyncio
async def test_a_nodes_server_address_sends_its_calls_there(fake_openai) -> None:
    from engine.graph.model import Edge, Node, Workflow
    from engine.runtime import Run, compile_workflow

    wf = Workflow("local server")
    wf.add_node(Node("in", "input", params={"name": "goal", "default": "Say hello."}))
    wf.add_node(Node("x", "executor", params={"model": "openai/my-local-model", "api_base": fake_openai.url,
                                              "retries": 0}))
    wf.add_node(Node("out", "output", params={"name": "result"}))
    wf.add_edge(Edge("e1", "in", "value", "x", "task"))
    wf.add_edge(Edge("e2", "x", "result", "out", "value"))
    no_keys = Gateway(keys=KeyResolver(environ={}, keyring_get=None), prices=PriceTable({}))
    run = Run(compile_workflow(wf), gateway=no_keys)  # a local server needs no key
    result = await run.wait()
    assert result.status == "succeeded", result.reason
    assert result.outputs["result"].strip() == REPLY
    assert [r["path"] for r in fake_openai.requests] == ["/v1/chat/completions"]
    assert fake_openai.requests[0]["body"]["model"] == "my-local-model"
    started = next(e for e in run.hub.history if e.kind == "llm_started")
    assert started.request["api_base"] == fake_openai.url  # recorded with the call, for replay and audit


@pytest.mark.asyncio
async def test_the_first_call_imports_litellm_without_stopping_the_loop(fake_openai, monkeypatch) -> None:
    import time

    import engine.llm.gateway as gateway_module
    from tests.engine.llm.loop_ticks import ticks_while

    real_load = gateway_module.load_litellm

    def slow_import() -> object:
        time.sleep(0.3)  # as importing litellm takes seconds
        return real_load()

    monkeypatch.setattr(gateway_module, "litellm_loaded", lambda: False)
    monkeypatch.setattr(gateway_module, "load_litellm", slow_import)
    response, ticks = await ticks_while(_gateway().complete(_request(fake_openai.url, stream=False)))
    assert response.content == REPLY
    assert ticks >= 10  # the loop ran on while the import took its time


@pytest.mark.asyncio
async def test_a_429_with_retry_after_waits_as_long_as_asked(fake_openai) -> None:
    fake_openai.script[:] = [("retry-after", 429, "1.5")]
    seen: list[float] = []

    class Listener(_Receiver):
        def retrying(self, attempt: int, error: Exception, delay_s: float) -> None:
            seen.append(delay_s)

    started = time.monotonic()
    response = await _gateway().complete(_request(fake_openai.url, retries=2), Listener())
    assert response.content.strip() == REPLY
    assert seen and seen[0] >= 1.5  # the backoff alone would have waited ~0.01 s
    assert time.monotonic() - started >= 1.5


@pytest.mark.asyncio
async def test_a_stream_cut_before_its_end_is_not_a_complete_reply(fake_openai) -> None:
    fake_openai.script[:] = ["cut", "cut", "cut"]
    with pytest.raises(ProviderUnavailableError, match="ended without its end"):
        await _gateway().complete(_request(fake_openai.url, retries=2))
    assert len(fake_openai.requests) == 3  # retried, then given up on
    fake_openai.script[:] = ["cut"]
    response = await _gateway().complete(_request(fake_openai.url, retries=1))
    assert response.content.strip() == REPLY  # the retry got the whole reply
