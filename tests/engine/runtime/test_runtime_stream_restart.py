"""Retried calls are announced in the run's stream: each retry by an `LLMCallRetrying` (the error, the
wait), a stream that breaks and starts again by an `LLMStreamRestarted` — the text after a call's last
restart is its reply; the broken attempt's tokens still count."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.events import LLMCallFinished, LLMStreamRestarted, LLMTokenDelta
from engine.llm.retry import Backoff, with_retries
from engine.llm.types import LLMRequest, LLMResponse, ProviderUnavailableError, stream_attempts
from engine.runtime import Run, compile_workflow
from engine.store import TraceStore
from tests.engine.runtime.fakes import build


class BreakingStream:
    """A gateway whose first attempt streams two words and then fails (retryable); the retry is whole."""

    async def complete(self, request: LLMRequest, on_delta: Callable[[str], None] | None = None) -> LLMResponse:
        stream = stream_attempts(on_delta)

        async def attempt(number: int) -> LLMResponse:
            if stream is not None:
                stream.new_attempt(number)
            words = ["broken ", "start "] if number == 1 else ["the ", "whole ", "reply"]
            for word in words:
                if stream is not None:
                    stream(word)
            if number == 1:
                raise ProviderUnavailableError("connection reset mid-stream", provider="fake", model=request.model)
            return LLMResponse("the whole reply", request.model, "fake", 5, 3)

        return await with_retries(attempt, retries=2, backoff=Backoff(base_s=0.0, cap_s=0.0))


def one_executor(**budget: float):  # type: ignore[no-untyped-def]
    return build([("in", "input", {"default": "go"}), ("x", "executor", {}), ("out", "output", {})],
                 ["in.value->x.task", "x.result->out.value"], **budget)


@pytest.mark.asyncio
async def test_the_restart_is_in_the_stream_store_and_the_text_after_it_is_the_reply(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        run = Run(compile_workflow(one_executor(max_tokens=10_000)), gateway=BreakingStream(), store=store)
        result = await run.wait()
        assert result.status == "succeeded" and result.outputs["result"] == "the whole reply"
        history = run.hub.history
        (restart,) = [e for e in history if isinstance(e, LLMStreamRestarted)]
        (finished,) = [e for e in history if isinstance(e, LLMCallFinished)]
        deltas = [e for e in history if isinstance(e, LLMTokenDelta)]
        assert restart.attempt == 2 and restart.span_id == finished.span_id
        assert "".join(d.text for d in deltas if d.seq < restart.seq) == "broken start "
        assert "".join(d.text for d in deltas if d.seq > restart.seq) == finished.content
        assert list(store.iter_events(result.run_id)) == history  # stored and read back like any event
        assert result.recording_errors == []


@pytest.mark.asyncio
async def test_each_retry_of_a_call_is_an_event_in_its_span(tmp_path: Path) -> None:
    from engine.events import LLMCallRetrying, LLMCallStarted
    from engine.llm.sim import SimGateway

    wf = one_executor()
    wf.set_param("x", "sim", {"fail_first": 2, "fail_kind": "rate_limit"})
    with TraceStore(tmp_path / "t.db") as store:
        run = Run(compile_workflow(wf), gateway=SimGateway(backoff=Backoff(base_s=0.0, cap_s=0.0)), store=store)
        result = await run.wait()
        assert result.status == "succeeded"
        history = run.hub.history
        (started,) = [e for e in history if isinstance(e, LLMCallStarted)]
        (finished,) = [e for e in history if isinstance(e, LLMCallFinished)]
        retries = [e for e in history if isinstance(e, LLMCallRetrying)]
        assert [(r.attempt, r.error_type) for r in retries] == [(2, "RateLimitedError"), (3, "RateLimitedError")]
        assert all(r.span_id == started.span_id and started.seq < r.seq < finished.seq for r in retries)
        assert "rate limit" in retries[0].error and retries[0].delay_s == 0.0
        assert list(store.iter_events(result.run_id)) == history
        [span] = [s for s in store.spans(result.run_id) if s.kind == "llm"]
        assert span.attrs["retries"] == 2 and span.attrs["last_retry_error"].startswith("RateLimitedError: ")
