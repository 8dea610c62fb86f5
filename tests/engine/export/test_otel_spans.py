"""The run → spans mapping on its own (no receiver): an interrupted run's open spans end with the run as
errors, a failed model call is an error span with its error type, ids depend only on run and span ids,
times are the recording's, and a projection with no events maps to no spans."""

from __future__ import annotations

from opentelemetry.trace import StatusCode

from engine import events as ev
from engine.export.otel import Scrubber, run_spans
from engine.projection import project


def _events(run_id: str) -> list[ev.Event]:
    root, node, ok_call, bad_call, open_call = "run:" + run_id, "n1#1", "c1", "c2", "c3"
    return [
        ev.RunStarted(run_id=run_id, seq=1, ts=0.0, span_id=root, workflow_id="w", workflow_name="W",
                      workflow_hash="h"),
        ev.NodeStateChanged(run_id=run_id, seq=2, ts=0.1, span_id=node, parent_id=root, node_id="n1",
                            state="running"),
        ev.LLMCallStarted(run_id=run_id, seq=3, ts=0.2, span_id=ok_call, parent_id=node, node_id="n1",
                          model="openai/gpt-4o-mini", request={"model": "openai/gpt-4o-mini", "temperature": 0.2}),
        ev.LLMCallFinished(run_id=run_id, seq=4, ts=0.5, span_id=ok_call, parent_id=node, node_id="n1",
                           model="openai/gpt-4o-mini", tokens_in=10, tokens_out=5, cost_usd=0.01,
                           response={"model": "gpt-4o-mini-2024-07-18", "provider": "openai"}),
        ev.LLMCallStarted(run_id=run_id, seq=5, ts=0.6, span_id=bad_call, parent_id=node, node_id="n1",
                          model="anthropic/claude", request={}),
        ev.LLMCallFinished(run_id=run_id, seq=6, ts=0.7, span_id=bad_call, parent_id=node, node_id="n1",
                           model="anthropic/claude", error="rate limited key=secret-value-123",
                           error_type="RateLimitError"),
        ev.LLMCallStarted(run_id=run_id, seq=7, ts=0.8, span_id=open_call, parent_id=node, node_id="n1",
                          model="sim/default", request={}),
    ]


def test_spans_of_an_interrupted_run() -> None:
    spans = run_spans(project(_events("r1")), started_at=1000.0, scrubber=Scrubber(["secret-value-123"]))
    by_name = {s.name: s for s in spans}
    assert set(by_name) == {"invoke_workflow W", "invoke_agent n1", "chat openai/gpt-4o-mini",
                            "chat anthropic/claude", "chat sim/default"}
    ok = by_name["chat openai/gpt-4o-mini"]
    assert ok.start_time == 1_000_200_000_000 and ok.end_time == 1_000_500_000_000
    assert ok.attributes["gen_ai.provider.name"] == "openai"
    assert ok.attributes["gen_ai.response.model"] == "gpt-4o-mini-2024-07-18"
    assert ok.attributes["gen_ai.request.temperature"] == 0.2 and ok.status.status_code == StatusCode.UNSET
    assert ok.parent is not None and ok.parent.span_id == by_name["invoke_agent n1"].context.span_id
    bad = by_name["chat anthropic/claude"]
    assert bad.status.status_code == StatusCode.ERROR and bad.attributes["error.type"] == "RateLimitError"
    assert "secret-value-123" not in (bad.status.description or "")
    for still_open in ("invoke_workflow W", "invoke_agent n1", "chat sim/default"):
        span = by_name[still_open]
        assert span.status.status_code == StatusCode.ERROR and "interrupted" in (span.status.description or "")
        assert span.end_time == 1_000_800_000_000  # ends with the last thing the run recorded
    assert by_name["invoke_agent n1"].attributes["gen_ai.usage.input_tokens"] == 10  # its calls rolled up


def test_ids_depend_only_on_run_and_span_ids() -> None:
    first = run_spans(project(_events("r1")), started_at=1000.0)
    again = run_spans(project(_events("r1")), started_at=2000.0)
    other = run_spans(project(_events("r2")), started_at=1000.0)
    assert [s.context.span_id for s in first] == [s.context.span_id for s in again]
    assert {s.context.trace_id for s in first} == {first[0].context.trace_id}
    assert first[0].context.trace_id != other[0].context.trace_id
    assert not {s.context.span_id for s in first} & {s.context.span_id for s in other}
    assert run_spans(project([]), started_at=0.0) == []
