"""The terminal prompt of `triadic run` answers human gates as the person at the terminal ("user"),
and a rejection keeps the reason they typed."""

from __future__ import annotations

import pytest

from app.cli import human_prompt
from engine.events import HumanDecisionMade
from engine.runtime import Run, compile_workflow
from tests.engine.runtime.fakes import FakeGateway, build


class _Reporter:
    def __init__(self) -> None:
        self.paused = 0

    def pause(self) -> None:
        self.paused += 1

    def resume(self) -> None:
        pass


@pytest.mark.asyncio
async def test_a_person_rejects_at_the_terminal_and_says_why(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["r", "the totals do not add up"])

    async def typed(prompt: str) -> str | None:
        return next(answers)

    monkeypatch.setattr(human_prompt, "read_line", typed)
    reporter = _Reporter()
    wf = build([("in", "input", {}), ("gate", "human_gate", {}), ("out", "output", {})],
               ["in.value->gate.subject", "gate.approved->out.value"])
    run = Run(compile_workflow(wf), gateway=FakeGateway(), inputs={"goal": "ship it"},
              human=human_prompt.human_policy("ask", reporter))
    await run.wait()
    decided = next(e for e in run.hub.history if isinstance(e, HumanDecisionMade))
    assert (decided.decision, decided.by, decided.reason) == ("reject", "user", "the totals do not add up")
    assert reporter.paused == 1 and "gate asks:" in capsys.readouterr().out
    policy = human_prompt.human_policy("no-terminal", reporter)
    assert policy.by == "policy"  # nobody was asked
