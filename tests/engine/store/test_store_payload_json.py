"""The per-kind payload encoders write exactly the text the generic path (dict of non-default fields →
compact JSON) writes, and refuse what JSON cannot hold the same way."""

from __future__ import annotations

import math
from typing import Any

import pytest

from engine import events as ev
from engine.store import codec
from tests.engine.store.store_samples import triad_run


def _generic(event: ev.Event, strip_body: bool) -> str:
    values = {n: getattr(event, n) for n in codec._FIELD_NAMES[event.kind]}
    if event.kind in codec.CALL_BODIES:
        return codec.dumps(codec._payload_fields(event, strip_body, values))
    out = {}
    for name, default in codec._PAYLOAD_FIELDS[event.kind]:
        value = values[name]
        if default is codec._NO_DEFAULT or type(value) is not type(default) or value != default:
            out[name] = value
    return codec.dumps(out)


@pytest.mark.parametrize("strip_body", [True, False])
def test_every_event_of_a_run_encodes_to_the_generic_text(strip_body: bool) -> None:
    events = triad_run()
    assert len({e.kind for e in events}) >= 8
    for event in events:
        assert codec.encode_payload(event, strip_body=strip_body) == _generic(event, strip_body), event.kind


@pytest.mark.parametrize("value", ["", "é \"q\" \\ \n \ud800", 0, -7, 2**70, 0.1, -0.0, 1e300, True, False, None,
                                   [1, "a", None], {"k": [1.5, {"n": None}]}])
def test_values_of_every_json_type_match(value: Any) -> None:
    event = ev.NodeOutput(run_id="r", seq=1, ts=0.0, node_id="n", port="p", value=value, round=3)
    assert codec.encode_payload(event, strip_body=True) == _generic(event, True)


def test_a_default_of_another_type_is_kept_like_the_generic_path() -> None:
    event = ev.NodeStateChanged(run_id="r", seq=1, ts=0.0, node_id="n", state="done", attempt=True)  # type: ignore[arg-type]
    assert codec.encode_payload(event, strip_body=True) == _generic(event, True)
    assert '"attempt":true' in codec.encode_payload(event, strip_body=True)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_refused(bad: float) -> None:
    event = ev.BudgetUpdated(run_id="r", seq=1, ts=0.0, tokens=1, cost_usd=bad, elapsed_s=0.0)
    with pytest.raises(ValueError):
        codec.encode_payload(event, strip_body=True)


def test_llm_finished_keeps_content_once() -> None:
    same = ev.LLMCallFinished(run_id="r", seq=1, ts=0.0, span_id="s", node_id="n", model="m", content="hi",
                              response={"content": "hi"})
    other = ev.LLMCallFinished(run_id="r", seq=1, ts=0.0, span_id="s", node_id="n", model="m", content="",
                               response={"content": "x"})
    assert '"content"' not in codec.encode_payload(same, strip_body=True)
    assert '"content":""' in codec.encode_payload(other, strip_body=True)
    for event in (same, other):
        assert codec.encode_payload(event, strip_body=True) == _generic(event, True)
