"""The rows a batch of events adds besides its event segments: run rows, memory entries, verdicts.

Invariants:
- `BatchRows.add` is all-or-nothing per event: it computes every row of the event before appending
  any, so an event that cannot be encoded leaves no partial rows (the caller reports it and leaves it
  out of its segment too);
- only the kinds below make rows; every other event lives in its segment alone;
- LLM token usage of a batch is one live increment per run (run totals are set exactly by `RunFinished`).
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from typing import Any

from engine.events import Event, LLMCallFinished, MemoryWritten, RunFinished, RunStarted, VerdictIssued
from engine.store.codec import dumps

Row = dict[str, Any]


@dataclass(slots=True)
class RunContext:
    pk: int
    workflow_id: str
    last_seq: int | None = None  # the highest seq stored for the run (None: nothing yet)


def run_started_row(event: RunStarted, wall_time: float) -> Row:
    return {
        "id": event.run_id, "workflow_id": event.workflow_id, "workflow_name": event.workflow_name,
        "workflow_hash": event.workflow_hash, "status": "running", "reason": "", "started_at": wall_time,
        "inputs": dumps(event.inputs), "settings": dumps(event.settings), "replay_of": event.replay_of,
        "fork_of": event.fork_of, "fork_at_seq": event.fork_at_seq, "owner_pid": os.getpid(),
        "duration_s": 0.0, "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0, "outputs": "{}",
    }


RUN_STARTED_KEYS = (
    "id", "workflow_id", "workflow_name", "workflow_hash", "status", "reason", "started_at", "inputs", "settings",
    "replay_of", "fork_of", "fork_at_seq", "owner_pid",
)


@dataclass(slots=True)
class BatchRows:
    runs_finished: list[Row] = field(default_factory=list)
    memory: list[Row] = field(default_factory=list)
    verdicts: list[Row] = field(default_factory=list)
    _usage: dict[int, list[Any]] = field(default_factory=dict)  # run pk -> [tokens in, tokens out, cost]

    @property
    def run_increments(self) -> list[Row]:
        return [{"b_pk": pk, "d_in": d_in, "d_out": d_out, "d_cost": d_cost}
                for pk, (d_in, d_out, d_cost) in self._usage.items()]

    def add(self, event: Event, run: RunContext, wall_time: float) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event, run, wall_time)

    def add_all(self, events: Sequence[Event], run: RunContext, wall_time: float,
                types: Sequence[type[Event]] | None = None) -> None:
        """`add` for each of `events`, all or nothing: when one fails the rows are left as they were.
        `types`, when given, are the events' classes (the caller's, so they are not looked up twice).
        The usage of the LLM calls among them is summed in one go (no step per call)."""
        types = list(map(type, events)) if types is None else types
        kinds = set(types)
        if kinds.isdisjoint(_HANDLERS):
            return
        marks = len(self.runs_finished), len(self.memory), len(self.verdicts), {k: list(v) for k, v in self._usage.items()}
        try:
            if LLMCallFinished in kinds:
                calls = list(compress(events, map(operator.is_, types, repeat(LLMCallFinished))))
                self._add_usage(run, sum(map(_TOKENS_IN, calls)), sum(map(_TOKENS_OUT, calls)),
                                sum(map(_COST, calls)))
            if not kinds.isdisjoint(_ROW_MAKERS):
                for event in events:
                    maker = _ROW_MAKERS.get(type(event))
                    if maker is not None:
                        maker(self, event, run, wall_time)
        except BaseException:
            del self.runs_finished[marks[0]:], self.memory[marks[1]:], self.verdicts[marks[2]:]
            self._usage = marks[3]
            raise

    def _llm_finished(self, event: LLMCallFinished, run: RunContext, wall_time: float) -> None:
        self._add_usage(run, event.tokens_in, event.tokens_out, event.cost_usd)

    def _add_usage(self, run: RunContext, tokens_in: int, tokens_out: int, cost_usd: float) -> None:
        if not (tokens_in or tokens_out or cost_usd):
            return
        total = self._usage.get(run.pk)
        if total is None:
            self._usage[run.pk] = [tokens_in, tokens_out, cost_usd]
        else:
            total[0] += tokens_in
            total[1] += tokens_out
            total[2] += cost_usd

    def _run_finished(self, event: RunFinished, run: RunContext, wall_time: float) -> None:
        self.runs_finished.append({
            "b_pk": run.pk, "status": event.status, "reason": event.reason, "finished_at": wall_time,
            "duration_s": event.duration_s, "tokens_in": event.tokens_in, "tokens_out": event.tokens_out,
            "cost_usd": event.cost_usd, "outputs": dumps(event.outputs),
        })

    def _memory_written(self, event: MemoryWritten, run: RunContext, wall_time: float) -> None:
        scope_id = {"run": event.run_id, "workflow": run.workflow_id}.get(event.scope, "")
        self.memory.append({
            "memory": event.memory, "scope": event.scope, "scope_id": scope_id, "key": event.key,
            "value": dumps(event.value), "node_id": event.node_id, "run_id": event.run_id,
            "admitted": bool(event.admitted), "reason": event.reason, "seq": event.seq, "ts": event.ts,
        })

    def _verdict(self, event: VerdictIssued, run: RunContext, wall_time: float) -> None:
        self.verdicts.append({
            "run_pk": run.pk, "seq": event.seq, "ts": event.ts, "span_id": event.span_id,
            "node_id": event.node_id, "subject_node_id": event.subject_node_id, "decision": event.decision,
            "score": float(event.score), "reasons": dumps(event.reasons), "claims": dumps(event.claims),
            "round": event.round, "artifact_seq": event.artifact_seq, "judge_model": event.judge_model,
        })


_HANDLERS: dict[type[Event], Callable[[BatchRows, Any, RunContext, float], None]] = {
    LLMCallFinished: BatchRows._llm_finished,
    RunFinished: BatchRows._run_finished,
    MemoryWritten: BatchRows._memory_written,
    VerdictIssued: BatchRows._verdict,
}
_ROW_MAKERS = {kind: make for kind, make in _HANDLERS.items() if kind is not LLMCallFinished}
_TOKENS_IN = operator.attrgetter("tokens_in")
_TOKENS_OUT = operator.attrgetter("tokens_out")
_COST = operator.attrgetter("cost_usd")
