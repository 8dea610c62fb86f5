"""The one projection of a run: every bundled example folded live agrees with what the store holds,
and the run as it was at any seq is the projection of the events up to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import events as ev
from engine.graph.format import load_workflow
from engine.llm.sim import SimGateway
from engine.projection import RunProjection, project
from engine.runtime import HumanPolicy, compile_workflow
from engine.runtime.launch import follow, input_specs, start_run
from engine.store import TraceStore
from engine.store.spans import span_records

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"
NAMES = ["triad", "research", "code_fix", "text_to_sql", "hanoi", "tools"]


async def _run(name: str, store: TraceStore) -> tuple[RunProjection, list[list[ev.Event]]]:
    wf = load_workflow(EXAMPLES / f"{name}.triadic.json")
    run = start_run(compile_workflow(wf, base_dir=EXAMPLES), store=store, gateway=SimGateway(),
                    human=HumanPolicy(decide="approve"))
    projection = RunProjection()
    batches: list[list[ev.Event]] = []
    await follow(run, projection, batches.append)
    return projection, batches


@pytest.mark.asyncio
@pytest.mark.parametrize("name", NAMES)
async def test_a_live_fold_agrees_with_the_store(name: str, tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        live, batches = await _run(name, store)
        run_id = live.run_id
        assert live.finished and live.status == store.get_run(run_id).status  # type: ignore[union-attr]
        stored = list(store.iter_events(run_id))
        assert [e.seq for b in batches for e in b] == [e.seq for e in stored]  # every event, once, in order
        assert span_records(live.span_table, run_id) == store.spans(run_id)
        assert [(v.node_id, v.decision, v.round) for v in live.verdicts] == [
            (v.node_id, v.decision, v.round) for v in store.verdicts(run_id)]
        assert [(w.memory, w.key, w.admitted) for w in live.memory_writes] == [
            (m.memory, m.key, m.admitted) for m in store.memory_writes(run_id)]
        summary = store.get_run(run_id)
        assert summary is not None
        assert (live.tokens_in, live.tokens_out) == (summary.tokens_in, summary.tokens_out)
        assert live.cost_usd == pytest.approx(summary.cost_usd)
        node_tokens = sum(r.tokens for r in live.nodes.values() if "/" not in r.node_id)
        assert node_tokens == live.tokens_in + live.tokens_out  # usage per node adds up to the run's
        if live.usage.tokens:
            assert live.usage.tokens[-1] == live.tokens_in + live.tokens_out
            assert live.usage.tokens == sorted(live.usage.tokens)  # cumulative: never goes down
        for call in live.calls.values():  # a finished call's streamed text is its reply
            assert call.finished
            if call.kind == "llm" and not call.error:
                assert call.text == call.response.get("content", call.content)


@pytest.mark.asyncio
async def test_the_plan_is_announced_queued_before_the_first_node_runs(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        _live, batches = await _run("triad", store)
    events = [e for b in batches for e in b]
    assert [e.kind for e in events[:2]] == ["run_started", "run_planned"]
    at_plan = project(events, until_seq=events[1].seq)
    wf = load_workflow(EXAMPLES / "triad.triadic.json")
    assert set(at_plan.nodes) == set(wf.nodes)
    assert {r.state for r in at_plan.nodes.values()} == {"queued"}
    assert {k: r.title for k, r in at_plan.nodes.items()} == {k: n.title or k for k, n in wf.nodes.items()}


@pytest.mark.asyncio
async def test_the_run_as_it_was_at_any_seq(tmp_path: Path) -> None:
    with TraceStore(tmp_path / "t.db") as store:
        live, _ = await _run("research", store)
        events = list(store.iter_events(live.run_id))
    for cut in (1, 5, len(events) // 3, len(events) // 2, len(events) - 1, len(events)):
        until = events[cut - 1].seq
        at = project(events, until_seq=until)
        again = RunProjection()
        for e in events[:cut]:
            again.apply(e)
        assert at.last_seq == until and len(at.events) == cut
        assert {k: (r.state, r.tokens, r.llm_calls) for k, r in at.nodes.items()} == {
            k: (r.state, r.tokens, r.llm_calls) for k, r in again.nodes.items()}
        assert len(at.verdicts) == sum(1 for e in events[:cut] if isinstance(e, ev.VerdictIssued))
        assert at.finished == (cut == len(events))
    middle = project(events, until_seq=events[len(events) // 2].seq)
    assert any(r.state in ("running", "waiting", "queued") for r in middle.nodes.values())


def test_streamed_text_restarts_and_changes_are_coalesced_per_call() -> None:
    p = RunProjection()
    mk = dict(run_id="r", ts=0.0)
    p.apply(ev.RunStarted(seq=1, span_id="run", workflow_id="w", workflow_name="W", workflow_hash="h", **mk))
    p.apply(ev.NodeStateChanged(seq=2, span_id="n1", parent_id="run", node_id="a", state="running", **mk))
    p.apply(ev.LLMCallStarted(seq=3, span_id="c1", parent_id="n1", node_id="a", model="m", request={}, **mk))
    p.take_changes()
    for i, text in enumerate(["Hel", "lo", " wor"]):
        p.apply(ev.LLMTokenDelta(seq=4 + i, span_id="c1", parent_id="n1", text=text, **mk))
    changes = p.take_changes()
    assert changes.calls_changed == {"c1"} and changes.events == 3 and p.calls["c1"].text == "Hello wor"
    assert p.stream_text == "Hello wor" and p.stream_node() == "a"
    p.apply(ev.LLMStreamRestarted(seq=7, span_id="c1", parent_id="n1", attempt=2, **mk))
    assert p.calls["c1"].text == "" and p.calls["c1"].restarts == 1
    p.apply(ev.LLMTokenDelta(seq=8, span_id="c1", parent_id="n1", text="Hi", **mk))
    p.apply(ev.LLMCallFinished(seq=9, span_id="c1", parent_id="n1", node_id="a", model="m", content="Hi",
                               tokens_in=5, tokens_out=1, response={"priced": False}, **mk))
    assert p.calls["c1"].text == "Hi" and not p.calls["c1"].priced
    assert p.nodes["a"].unpriced_calls == 1 and p.usage.by_model["m"].unpriced_calls == 1  # cost unknown, not $0


def test_human_questions_and_answers_pair_up() -> None:
    p = RunProjection()
    mk = dict(run_id="r", ts=0.0)
    p.apply(ev.HumanDecisionRequested(seq=1, node_id="gate", prompt="ok?", artifact="draft", **mk))
    assert [q.node_id for q in p.open_questions()] == ["gate"]
    p.apply(ev.HumanDecisionMade(seq=2, node_id="gate", decision="edit", edited="better", reason="typo", **mk))
    assert not p.open_questions() and p.questions[0].edited == "better" and p.questions[0].reason == "typo"


def test_input_specs_come_from_the_input_nodes() -> None:
    wf = load_workflow(EXAMPLES / "triad.triadic.json")
    specs = input_specs(wf)
    assert [s.name for s in specs] == [str(n.param("name")) for n in wf.nodes.values() if n.role == "input"]
