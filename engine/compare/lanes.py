"""Events of a run as comparable lanes: what "the same step" means when two runs are compared.

Two runs of one workflow interleave their parallel work differently even when they do the same thing,
so events are not compared in global seq order but per lane: a node's own events (state, outputs,
verdicts, memory, plans, human answers) form the node's lane; each model call forms a lane of its own
named by its structural key (node path, round, task, sample, …: `engine.replay.keys`), each tool call
one by node and tool. Within a lane events keep their order. An event is compared by its kind and
payload without what always differs between runs (run id, seq, timestamps, span ids, latencies,
durations); streamed deltas are left out (the call's finished text holds them).

Invariant: a run and its replay give the same lanes, event for event equal in kind and payload (seqs aside).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine import events as ev
from engine.replay.keys import KeyCounter, structure_of

VOLATILE = frozenset({"run_id", "seq", "ts", "span_id", "parent_id", "latency_s", "duration_s", "elapsed_s",
                      "artifact_seq", "by"})
_SKIPPED = (ev.LLMTokenDelta, ev.RunStarted, ev.RunPlanned, ev.RunFinished, ev.BudgetUpdated, ev.RunPaused,
            ev.RunResumed)


@dataclass(frozen=True, slots=True)
class LaneEvent:
    seq: int
    kind: str
    payload: Any  # the normalised record: what must be equal for the step to be the same

    def summary(self, limit: int = 160) -> str:
        text = f"{self.kind} {self.payload}"
        return text if len(text) <= limit else text[: limit - 1] + "…"


def normalised(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: normalised(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list | tuple):
        return [normalised(v) for v in value]
    return value


def lanes(events: Iterable[ev.Event]) -> dict[str, list[LaneEvent]]:
    out: dict[str, list[LaneEvent]] = {}
    call_lane: dict[str, str] = {}  # span id of a call → its lane
    llm_keys, tool_keys = KeyCounter(), KeyCounter()
    for e in events:
        if isinstance(e, _SKIPPED):
            continue
        lane: str | None
        if isinstance(e, ev.LLMCallStarted):
            meta = e.request.get("metadata") or {}
            lane = "llm " + llm_keys.next(structure_of(str(meta.get("node_id", e.node_id)), meta))
            call_lane[e.span_id or ""] = lane
        elif isinstance(e, ev.ToolCallStarted):
            lane = "tool " + tool_keys.next(f"{e.node_id}|{e.tool}")
            call_lane[e.span_id or ""] = lane
        elif isinstance(e, ev.LLMCallFinished | ev.ToolCallFinished | ev.LLMStreamRestarted | ev.LLMCallRetrying):
            lane = call_lane.get(e.span_id or "")
        else:
            lane = getattr(e, "node_id", None) or "run"
        if lane is None:
            continue
        record = normalised(e.to_record())
        out.setdefault(lane, []).append(LaneEvent(e.seq, e.kind, record))
    return out
