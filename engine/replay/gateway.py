"""`ReplayGateway`: a `ChatGateway` that serves every model call of a run from its recording.

Per call: the structural key (`engine.replay.keys`) finds the recorded call; the hash of the new
request must equal the recorded one. Equal: what streamed is streamed again through the same
callback (deltas, stream restarts, gateway retries, in order) and the recorded response (or the
recorded retryable error, so a node-level retry happens again) is returned — no provider is asked.
Different, or nothing recorded there: a `ReplayDiverged` event names the node, the call and what
differs, then in "strict" mode the call fails (`ReplayDivergenceError`, not retryable) and so does
every later call (the run ends failed saying so); in "fork" mode the call goes to the `live` gateway,
and so does every later call of a node that diverged or that `live_nodes` names (a fork's node and
what lies downstream of it, once the fork point has been reached).

In strict mode the run takes the recording's clock and turns (`engine.replay.clock`): each served
item is handed on when the replayed stream reaches its recorded seq, and every event gets the
recorded clock readings at its place — the replay's events equal the recording's.

Invariants: in strict mode `live` is never called — a replay makes zero provider calls; never a
silent wrong answer: a request the recording does not hold as made is never served.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Literal

from engine import llm
from engine.events import ReplayDiverged
from engine.llm.types import ChatGateway, DeltaCallback, LLMError, LLMRequest, LLMResponse
from engine.replay.clock import Sequencer
from engine.replay.keys import KeyCounter, request_hash, structure_of, what_differs
from engine.replay.recording import RecordedLLM, Recording

if TYPE_CHECKING:
    from engine.llm.prices import ModelPrice
    from engine.runtime.hub import EventHub

Mode = Literal["strict", "fork"]
_CUT = ("BudgetHit", "CancelledError")
_RETRYABLE: dict[str, type[LLMError]] = {
    "RateLimitedError": llm.RateLimitedError, "ProviderUnavailableError": llm.ProviderUnavailableError,
    "LLMTimeoutError": llm.LLMTimeoutError,
}


class ReplayDivergenceError(LLMError):
    """A strict replay met a call its recording does not hold as made."""


class ReplayGateway:
    def __init__(self, recording: Recording, *, mode: Mode = "strict", live: ChatGateway | None = None,
                 fork_at: Callable[[str, str], bool] | None = None, downstream: Collection[str] = ()) -> None:
        if mode == "fork" and live is None:
            raise ValueError("fork mode needs a live gateway")
        self.recording, self.mode, self.live = recording, mode, live
        self._fork_at = fork_at  # (node_id, call key) -> this call is the fork point: it and what follows go live
        self._downstream = frozenset(downstream)
        self._keys = KeyCounter()
        self._started: dict[int, str] = {}  # id of a request announced (`starting`) → its call's key
        self.hub: EventHub | None = None
        self.sequencer: Sequencer | None = None
        self.served = 0
        self.live_calls = 0
        self.divergences: list[tuple[str, str, str]] = []  # (node, call key, what differs)
        self._live_nodes: set[str] = set()
        self._forked = False
        self._stopped: str | None = None

    def attach(self, hub: EventHub) -> None:
        """The run's event hub, for the `ReplayDiverged` events; a strict replay also takes the
        recording's clock and turns on it."""
        self.hub = hub
        if self.mode == "strict":
            hub.restamp = self.recording.clock.restamp
            self.sequencer = Sequencer(hub)

    async def _turn(self, seq: int) -> None:
        if self.sequencer is not None and seq:
            await self.sequencer.turn(seq)

    def price_of(self, request: LLMRequest) -> ModelPrice | None:
        price_of = getattr(self.live, "price_of", None)
        return price_of(request) if price_of is not None else None

    async def starting(self, request: LLMRequest) -> None:
        """The run is about to announce this call (`LLMCallStarted`): in a strict replay, at the seq the
        recorded call started at. The call's key is taken here, in the order calls start."""
        key = self._key_of(request)
        self._started[id(request)] = key
        recorded = self.recording.llm.get(key)
        if recorded is not None and self._stopped is None:
            await self._turn(recorded.started_seq)

    def _key_of(self, request: LLMRequest) -> str:
        return self._keys.next(structure_of(str(request.metadata.get("node_id", "")), request.metadata))

    async def complete(self, request: LLMRequest, on_delta: DeltaCallback | None = None) -> LLMResponse:
        node = str(request.metadata.get("node_id", ""))
        key = self._started.pop(id(request), None) or self._key_of(request)
        if self._stopped is not None:
            raise ReplayDivergenceError(f"replay stopped: {self._stopped}", provider="replay", model=request.model)
        if self._fork_at is not None and not self._forked and self._fork_at(node, key):
            self._forked = True
        if (self._forked and node in self._downstream) or node in self._live_nodes:
            return await self._go_live(request, on_delta)
        recorded = self.recording.llm.get(key)
        if recorded is None:
            return await self._diverge(node, key, "the recording has no such call (the run took another path)",
                                       request, on_delta)
        record = request.to_record()
        if request_hash(record) != recorded.hash:
            return await self._diverge(node, key, what_differs(recorded.request, record), request, on_delta)
        return await self._serve(recorded, request, on_delta)

    async def _serve(self, recorded: RecordedLLM, request: LLMRequest, on_delta: DeltaCallback | None) -> LLMResponse:
        self.served += 1
        await asyncio.sleep(0)  # a served call still yields, so parallel calls interleave as calls do
        cut = recorded.response is None and recorded.error_type in _CUT  # a budget (or a cancel) cut it
        if on_delta is not None:
            for (what, value), seq in zip(recorded.stream, recorded.stream_seqs, strict=True):
                await self._turn(seq)
                if what == "delta":
                    on_delta(value)
                    if cut:  # the run's token meter may cut the call here, as it did the first time
                        await asyncio.sleep(0)
                elif what == "restart" and (restart := getattr(on_delta, "restart", None)) is not None:
                    restart(value)
                elif what == "retry" and (retrying := getattr(on_delta, "retrying", None)) is not None:
                    attempt, error_type, error, delay = value
                    cls = _RETRYABLE.get(error_type, llm.ProviderUnavailableError)
                    retrying(attempt, cls(error, provider="replay", model=request.model), delay)
        await self._turn(recorded.finished_seq)
        if cut:
            await asyncio.sleep(0)
            raise ReplayDivergenceError(f"the recording ends here: the call was cut off ({recorded.error}) and "
                                        "this run did not cut it", provider="replay", model=request.model)
        if recorded.response is None:
            cls = _RETRYABLE.get(recorded.error_type or "", ReplayDivergenceError)
            raise cls(recorded.error or "the recorded call has no response", provider="replay", model=request.model)
        return _response(recorded.response)

    async def _diverge(self, node: str, key: str, detail: str, request: LLMRequest,
                       on_delta: DeltaCallback | None) -> LLMResponse:
        self.divergences.append((node, key, detail))
        action: Literal["stopped", "live"] = "stopped" if self.mode == "strict" else "live"
        if self.hub is not None and (action == "stopped" or node not in self._live_nodes):
            self.hub.emit(ReplayDiverged, node_id=node, call=key, detail=detail, action=action)
        if action == "stopped":
            self._stopped = f"{node}: {detail}"
            raise ReplayDivergenceError(f"replay diverged at {node} ({key}): {detail}", provider="replay",
                                        model=request.model)
        self._live_nodes.add(node)
        return await self._go_live(request, on_delta)

    async def _go_live(self, request: LLMRequest, on_delta: DeltaCallback | None) -> LLMResponse:
        assert self.live is not None
        self.live_calls += 1
        return await self.live.complete(request, on_delta)


def _response(record: dict[str, Any]) -> LLMResponse:
    return LLMResponse(content=str(record.get("content", "")), model=str(record.get("model", "")),
                       provider=str(record.get("provider", "")), tokens_in=int(record.get("tokens_in", 0)),
                       tokens_out=int(record.get("tokens_out", 0)), cost_usd=float(record.get("cost_usd", 0.0)),
                       latency_s=float(record.get("latency_s", 0.0)), finish_reason=record.get("finish_reason"),
                       tool_calls=list(record.get("tool_calls") or []), priced=bool(record.get("priced", True)))
