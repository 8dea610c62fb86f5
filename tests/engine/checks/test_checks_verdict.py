"""Verdict: validated decision, clamped score, record round trip."""

from __future__ import annotations

import pytest

from engine.checks import Verdict, approve, revise
from engine.events import VerdictIssued


def test_verdict_shape_matches_the_event() -> None:
    verdict = Verdict("revise", 1.7, ["too short"], [{"claim": "x", "ok": False}])
    assert verdict.score == 1.0 and not verdict.approved
    event = VerdictIssued(run_id="r", seq=1, ts=0.0, node_id="v", subject_node_id="e", **verdict.to_record())
    assert event.decision == "revise" and event.reasons == ["too short"]
    assert Verdict.from_record(verdict.to_record()) == verdict


def test_bad_verdicts_are_refused() -> None:
    with pytest.raises(ValueError, match="decision"):
        Verdict("maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="score"):
        Verdict.from_record({"decision": "approve", "score": "high"})
    with pytest.raises(ValueError, match="lists"):
        Verdict.from_record({"decision": "approve", "reasons": "fine"})
    assert Verdict.from_record({"decision": "approve"}).score == 1.0
    assert approve("ok").reasons == ["ok"] and revise(score=0.4).score == 0.4
