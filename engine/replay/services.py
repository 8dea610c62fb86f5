"""What a replayed run asks of the world besides models, served from the recording: tool calls
(`ReplayTools`), memory reads (`ReplayMemory`) and human answers (`replay_human`).

Invariants: a recorded tool call is never run again (nor, in a strict replay, a verifier's check): its
recorded result (or error) is returned; a call the recording does not hold is a divergence: strict
mode refuses it (the node fails), fork mode runs it on the real tools. Memory reads return what the
recorded run read at that key, in order (memory scoped to the workflow or globally may have changed
since; the replay must see what the run saw), and writes go to a memory of the replay's own (the trace
records them as events, as it did the first time). Human gates get the recorded answers node by node,
in order; a gate the recording never answered is rejected (strict) or asked of `fallback` (fork).
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from engine.events import ReplayDiverged
from engine.memory.backend import InMemoryBackend, MemoryEntry
from engine.replay.keys import KeyCounter, tool_structure
from engine.replay.recording import Recording
from engine.runtime.control import HumanPolicy, HumanReply
from engine.tools.errors import ToolDenied
from engine.tools.registry import ToolRegistry, ToolResult
from engine.tools.runtools import RunTools

if TYPE_CHECKING:
    from engine.replay.clock import Sequencer
    from engine.runtime.hub import EventHub


class ReplayTools(RunTools):
    def __init__(self, recording: Recording, *, live: bool, base: ToolRegistry | None = None) -> None:
        super().__init__(base)
        self.recording, self.live = recording, live
        self._keys = KeyCounter()
        self.hub: EventHub | None = None
        self.sequencer: Sequencer | None = None  # a strict replay's: a served call ends at its recorded turn
        self.served = 0

    async def call(self, name: str, arguments: dict[str, Any] | str | None, *, allow: Collection[str] | None,
                   read_only: bool, timeout_s: float) -> ToolResult:
        key = self._keys.next(tool_structure(name, arguments))
        recorded = self.recording.tools.get(key)
        if recorded is not None and recorded.finished:
            self.served += 1
            if self.sequencer is not None:
                await self.sequencer.turn(recorded.finished_seq)
            return ToolResult(name, copy.deepcopy(recorded.result), recorded.error)
        detail = f"the recording has no call of tool {name!r} with these arguments"
        if self.hub is not None:
            self.hub.emit(ReplayDiverged, node_id=f"tool {name}", call=key, detail=detail,
                          action="live" if self.live else "stopped")
        if not self.live:
            raise ToolDenied(name, f"replay diverged: {detail}")
        return await super().call(name, arguments, allow=allow, read_only=read_only, timeout_s=timeout_s)


    def recorded_check(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        """A verifier's check (`check.<kind>`) as recorded, in a strict replay: everything upstream was
        served identically, so the check judged the same artifact. None (run it) in fork mode, where
        the artifact may differ, or when the recording holds no finished verdict there."""
        key = self._keys.next(tool_structure(tool, arguments))
        recorded = self.recording.tools.get(key)
        if self.live or recorded is None or not recorded.finished or recorded.error or \
                not isinstance(recorded.result, dict):
            return None
        self.served += 1
        return copy.deepcopy(recorded.result)


class ReplayMemory:
    """A `MemoryBackend`: recorded reads first, then the replay's own writes."""

    def __init__(self, recording: Recording) -> None:
        self._reads = {k: list(v) for k, v in recording.memory_reads.items()}
        self._own = InMemoryBackend()

    def read(self, memory: str, scope: str, scope_id: str, key: str) -> object | None:
        queue = self._reads.get((memory, scope, key))
        if queue:
            served: object = copy.deepcopy(queue.pop(0))
            return served
        return self._own.read(memory, scope, scope_id, key)

    def write(self, memory: str, scope: str, scope_id: str, key: str, value: object, *,
              admitted: bool = True, reason: str = "", node_id: str = "") -> None:
        self._own.write(memory, scope, scope_id, key, value, admitted=admitted, reason=reason, node_id=node_id)

    def history(self, memory: str, scope: str, scope_id: str) -> list[MemoryEntry]:
        return self._own.history(memory, scope, scope_id)


def replay_human(recording: Recording, fallback: HumanPolicy | None = None) -> HumanPolicy:
    """A policy answering each gate as the recorded run's answer at that node (in order), recorded as
    given by whoever gave them in the recorded run."""
    answers = {node: list(made) for node, made in recording.human.items()}

    async def decide(node_id: str, prompt: str, artifact: Any) -> HumanReply:
        queue = answers.get(node_id)
        if queue:
            made = queue.pop(0)
            return made.decision, made.edited, made.reason  # type: ignore[return-value]
        if fallback is not None:
            return await fallback.answer(node_id, prompt, artifact)
        return "reject", None, "the recording holds no answer for this gate"

    # recorded as given by whoever gave the recorded answers (the events then equal the recording's);
    # "replay" when they came from several (a person and a policy)
    givers = {made.by for made_list in recording.human.values() for made in made_list}
    return HumanPolicy(decide=decide, by=givers.pop() if len(givers) == 1 else "replay")
