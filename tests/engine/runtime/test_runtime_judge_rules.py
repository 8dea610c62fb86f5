"""Two rules of the critic's loop that a broken engine could drop without another test noticing, and
the engine's own bound on a judge loop whose counts fail to end it."""

from __future__ import annotations

import asyncio

import pytest

from engine.runtime import execute
from tests.engine.runtime.fakes import FakeGateway, triad
from tests.engine.runtime.test_runtime_loops import verdicts


@pytest.mark.asyncio
async def test_an_approval_scored_below_approve_score_is_a_revise() -> None:
    gateway = FakeGateway(verdicts(("approve", 0.5), ("approve", 0.9)))
    result = await execute(triad(approve_score=0.7), gateway=gateway)
    assert result.status == "succeeded"
    assert [(v.decision, v.score) for v in result.verdicts] == [("revise", 0.5), ("approve", 0.9)]
    assert "score 0.50 is below the approval threshold 0.70" in result.verdicts[0].reasons
    assert {r.metadata["round"] for r in gateway.by_role("executor")} == {0, 1}  # the author revised once
    assert "draft 1" in result.outputs["result"] and "draft 0" not in result.outputs["result"]
    # at or above the threshold the same approval stands at once
    result = await execute(triad(approve_score=0.5), gateway=FakeGateway(verdicts(("approve", 0.5))))
    assert [v.decision for v in result.verdicts] == ["approve"] and "draft 0" in result.outputs["result"]


def _previous_attempt(prompt: str) -> str:
    return prompt.split("Previous attempt:\n", 1)[1]


@pytest.mark.asyncio
@pytest.mark.parametrize(("rollback", "shown", "hidden"), [(True, "draft 0", "draft 1"), (False, "draft 1", "draft 0")])
async def test_the_feedback_after_a_worse_revision_shows_the_best_artifact_when_rolling_back(
        rollback: bool, shown: str, hidden: str) -> None:
    gateway = FakeGateway(verdicts(("revise", 0.6), ("revise", 0.2), ("approve", 0.9)))
    result = await execute(triad(rollback_on_worse=rollback), gateway=gateway)
    assert result.status == "succeeded"
    third = [r for r in gateway.by_role("executor") if r.metadata["round"] == 2]
    assert third and all(shown in _previous_attempt(r.messages[-1]["content"]) and
                         hidden not in _previous_attempt(r.messages[-1]["content"]) for r in third)


@pytest.mark.asyncio
async def test_a_judge_loop_whose_rounds_are_never_spent_fails_fast_saying_where(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.roles import review

    monkeypatch.setattr(review, "rounds_spent", lambda revisions, max_rounds: False)  # revisions never counted
    never = verdicts(*[("revise", 0.2)] * 1000)
    result = await asyncio.wait_for(execute(triad(max_rounds=2), gateway=FakeGateway(never)), 30)
    assert result.status == "failed"
    bound = review.loop_bound(2)
    assert f"its judge loop went round {bound} times, past the engine's bound of {bound}" in result.reason
    assert "(critic)" in result.reason  # the node it names
