"""The one event emitter of a run and its subscriptions.

Invariants: `emit` (and the methods beside it for the kinds every node emits) is the only place
events of a run are made, so `seq` increases by one per event
and `ts` is monotonic seconds since the run started. Span ids say where in the graph a span is, never
which run or when it began (`new_span`): "run", "<node key>#<activation>", "<parent span>><kind><n>" —
the same in a run and in its replay. A replay's clock is its recording's (`restamp`, set by
`engine.replay`): each event's clock readings are the recorded event's at the same place. Every event is kept in `history`; each
`subscribe()` (or `subscribe_batches()`, a list of the events new since its last batch) is an
independent cursor over it, so a late subscriber sees the whole stream from the
first event and a slow one never blocks the run (its backlog is the shared history, nothing is
dropped). `output_seqs` indexes the latest `NodeOutput` of each node, so nobody scans the history
for it. Sinks get every event in order, handed over in batches at most `SINK_INTERVAL_S` late:
waking a writer thread per event costs a GIL hand-off per event, which on a busy machine dominates
the run. A batch sink (the trace writer's `append_many`) takes each batch in one call; a plain sink
is called once per event. A sink may not raise into the run.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from engine.events import (
    Event,
    LLMCallFinished,
    LLMCallStarted,
    LLMTokenDelta,
    NodeOutput,
    NodeState,
    NodeStateChanged,
)

_monotonic = time.monotonic
# the event classes' generated keyword constructors (`cls(...)` would add type.__call__ and object.__init__)
_new_node_state: Callable[..., NodeStateChanged] = NodeStateChanged.__new__
_new_node_output: Callable[..., NodeOutput] = NodeOutput.__new__
_new_llm_started: Callable[..., LLMCallStarted] = LLMCallStarted.__new__
_new_llm_delta: Callable[..., LLMTokenDelta] = LLMTokenDelta.__new__
_new_llm_finished: Callable[..., LLMCallFinished] = LLMCallFinished.__new__

E = TypeVar("E", bound=Event)
Sink = Callable[[Event], None]
BatchSink = Callable[[list[Event]], None]
SINK_INTERVAL_S = 0.05  # events reach sinks within this delay (or SINK_BATCH events)
SINK_BATCH = 2000


class EventHub:
    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.history: list[Event] = []
        self.node_states: dict[str, str] = {}
        self.output_seqs: dict[str, int] = {}  # by node: the seq of its latest NodeOutput (what a judge judged)
        self._sink_buffer: list[Event] = []
        self._sink_timer: asyncio.TimerHandle | None = None
        self.sink_errors: list[str] = []
        self._sinks: list[Sink] = []
        self._batch_sinks: list[BatchSink] = []
        self._has_sinks = False
        self._seq = itertools.count(1)
        self.next_seq = 1  # the seq the next event gets (a replay waits for its recorded turn by it)
        self._spans: dict[str, int] = {}  # span scope → spans made in it so far
        self.restamp: Callable[[Event], Event] | None = None  # a replay's: clock readings from the recording
        self.on_event: Callable[[], None] | None = None  # a replay's sequencer: told of every new event
        self._t0 = time.monotonic()
        self._wakeup: asyncio.Event | None = None
        self._holding = False  # subscribers are not woken while the run's start is being committed
        self.closed = False

    def add_sink(self, sink: Sink) -> None:
        """`sink(event)` for every event, in order."""
        self._sinks.append(sink)
        self._has_sinks = True

    def add_batch_sink(self, sink: BatchSink) -> None:
        """`sink(events)` for every batch of events, in order (the list is the sink's to keep)."""
        self._batch_sinks.append(sink)
        self._has_sinks = True

    def elapsed(self) -> float:
        return time.monotonic() - self._t0

    def new_span(self, kind: str, within: str = "") -> str:
        """A span id made of where the span is: "run"; a node's execution "<node key>#<n>" (`within` is
        the node key; its n-th execution, counted from 1); a call "<parent span>><kind><n>" (`within`
        is the node's span; its n-th call of that kind)."""
        if kind == "run":
            return "run"
        scope = within if kind == "node" else f"{within}>{kind}"
        n = self._spans[scope] = self._spans.get(scope, 0) + 1
        return f"{scope}#{n}" if kind == "node" else f"{scope}{n}"

    def emit(self, cls: type[E], **fields: Any) -> E:
        fields["run_id"], fields["seq"], fields["ts"] = self.run_id, next(self._seq), _monotonic() - self._t0
        # the kwargs dict is this call's own: filled in place, not merged into a new one; the class's own
        # constructor is called directly (`cls(...)` would go through type.__call__ and object.__init__)
        event = cls.__new__(cls, **fields)
        if cls is NodeStateChanged:
            self.node_states[event.node_id] = event.state  # type: ignore[attr-defined]
        elif cls is NodeOutput:
            self.output_seqs[event.node_id] = event.seq  # type: ignore[attr-defined]
        return self._keep(event)

    # The kinds every node execution emits, each with its own method: keyword parameters bound straight
    # to the event's constructor, no `**fields` dict made and unpacked per event (≈0.7 µs instead of
    # ≈1.5 µs an event). Same events as `emit` makes (tested).

    def node_state(self, node_id: str, state: NodeState, *, span_id: str | None = None, parent_id: str | None = None,
                   round: int = 0, detail: str = "") -> NodeStateChanged:
        self.node_states[node_id] = state
        return self._keep(_new_node_state(NodeStateChanged, run_id=self.run_id, seq=next(self._seq),
                                          ts=_monotonic() - self._t0, span_id=span_id, parent_id=parent_id,
                                          node_id=node_id, state=state, round=round, detail=detail))

    def node_output(self, node_id: str, port: str, value: Any, *, span_id: str | None, parent_id: str | None,
                    round: int = 0) -> NodeOutput:
        seq = self.output_seqs[node_id] = next(self._seq)
        return self._keep(_new_node_output(NodeOutput, run_id=self.run_id, seq=seq,
                                           ts=_monotonic() - self._t0, span_id=span_id, parent_id=parent_id,
                                           node_id=node_id, port=port, value=value, round=round))

    def llm_started(self, node_id: str, model: str, request: dict[str, Any], *, span_id: str,
                    parent_id: str) -> LLMCallStarted:
        return self._keep(_new_llm_started(LLMCallStarted, run_id=self.run_id, seq=next(self._seq),
                                           ts=_monotonic() - self._t0, span_id=span_id, parent_id=parent_id,
                                           node_id=node_id, model=model, request=request))

    def llm_delta(self, text: str, *, span_id: str, parent_id: str) -> LLMTokenDelta:
        return self._keep(_new_llm_delta(LLMTokenDelta, run_id=self.run_id, seq=next(self._seq),
                                         ts=_monotonic() - self._t0, span_id=span_id, parent_id=parent_id, text=text))

    def llm_finished(self, node_id: str, model: str, *, span_id: str, parent_id: str, content: str, tokens_in: int,
                     tokens_out: int, cost_usd: float, latency_s: float, response: dict[str, Any]) -> LLMCallFinished:
        """A call that answered (a failed or cut call goes through `emit`, with its error)."""
        return self._keep(_new_llm_finished(LLMCallFinished, run_id=self.run_id, seq=next(self._seq),
                                            ts=_monotonic() - self._t0, span_id=span_id, parent_id=parent_id,
                                            node_id=node_id, model=model, content=content, tokens_in=tokens_in,
                                            tokens_out=tokens_out, cost_usd=cost_usd, latency_s=latency_s,
                                            error=None, error_type=None, response=response))

    def _keep(self, event: E) -> E:
        """Put a new event in the history, hand it towards the sinks, wake the subscribers."""
        if self.restamp is not None:
            event = self.restamp(event)  # type: ignore[assignment]
        self.history.append(event)
        self.next_seq += 1
        if self.on_event is not None:
            self.on_event()
        if self._has_sinks:
            buffer = self._sink_buffer
            buffer.append(event)
            if len(buffer) >= SINK_BATCH:
                self.flush_sinks()
            elif self._sink_timer is None:
                self._sink_timer = asyncio.get_running_loop().call_later(SINK_INTERVAL_S, self.flush_sinks)
        if self._wakeup is not None and not self._holding:
            self._wakeup.set()
            self._wakeup = None
        return event

    def hold_subscribers(self) -> None:
        """Subscribers waiting for events see none until `release_subscribers` (or `close`): what they
        are shown first (`RunStarted`) is then already committed (engine/runtime/startup.py)."""
        self._holding = True

    def release_subscribers(self) -> None:
        self._holding = False
        if self._wakeup is not None:
            self._wakeup.set()
            self._wakeup = None

    def flush_sinks(self) -> None:
        """Hand buffered events to the sinks (in emission order)."""
        if self._sink_timer is not None:
            self._sink_timer.cancel()
            self._sink_timer = None
        batch, self._sink_buffer = self._sink_buffer, []
        if not batch:
            return
        for batch_sink in self._batch_sinks:
            try:
                batch_sink(batch if len(self._batch_sinks) == 1 else list(batch))
            except Exception as exc:  # a broken sink must never stop the run
                self.sink_errors.append(f"{type(exc).__name__}: {exc}")
        for sink in self._sinks:
            for event in batch:
                try:
                    sink(event)
                except Exception as exc:  # a broken sink must never stop the run
                    self.sink_errors.append(f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        self.flush_sinks()
        self.closed = True
        self._holding = False
        if self._wakeup is not None:
            self._wakeup.set()
            self._wakeup = None

    async def subscribe_batches(self) -> AsyncIterator[list[Event]]:
        """Like `subscribe`, but every event emitted since the last batch at once, as one list: a view
        that redraws per batch pays per wake-up, not per event (10,000 events a second arrive as a
        few dozen lists)."""
        index = 0
        while True:
            end = len(self.history)
            if index < end:
                batch = self.history[index:end]
                index = end
                yield batch
                continue
            if self.closed:
                return
            if self._wakeup is None:
                self._wakeup = asyncio.Event()
            await self._wakeup.wait()

    async def subscribe(self) -> AsyncIterator[Event]:
        index = 0
        while True:
            while index < len(self.history):
                yield self.history[index]
                index += 1
            if self.closed:
                return
            if self._wakeup is None:
                self._wakeup = asyncio.Event()
            await self._wakeup.wait()
