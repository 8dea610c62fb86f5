"""What every node execution of one run shares: emitter, budgets, control, gateway, caps.

Invariant: one `RunServices` per run (sub-graphs share their parent's), created inside the event loop
(`loop` and `loop_thread` are that loop and the thread running it). Each model or tool call holds
`call_slots(node_key, cap)`: a slot of the run's `concurrency` and, for a node with a `concurrency`
param of its own (`cap` > 0), one of that node's — one `Slots` per node key for the whole run, so
the node's cap holds across all its concurrent work (tasks, samples, items) and its executions.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.events import VerdictIssued
from engine.llm.types import ChatGateway
from engine.runtime.budget import BudgetTracker
from engine.runtime.control import HumanPolicy, RunControl
from engine.runtime.hub import EventHub
from engine.runtime.slots import NodeSlots, Slots

if TYPE_CHECKING:
    from engine.memory import MemoryBackend
    from engine.tools.registry import ToolRegistry
    from engine.tools.runtools import RunTools


class NodeFailed(Exception):
    """A node cannot produce its outputs; the message is the reason shown to the user."""


@dataclass(slots=True)
class RunServices:
    hub: EventHub
    gateway: ChatGateway
    budget: BudgetTracker
    control: RunControl
    seed: int
    concurrency: int
    workflow_id: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    human: HumanPolicy | None = None
    tools: ToolRegistry | RunTools | None = None  # the run's registry; a RunTools around it once a node uses it
    memory: MemoryBackend | None = None
    verdicts: list[VerdictIssued] = field(default_factory=list)
    replans: dict[str, int] = field(default_factory=dict)
    router_history: dict[str, list[str]] = field(default_factory=dict)
    slots: Slots = field(init=False)
    node_slots: dict[str, NodeSlots] = field(default_factory=dict)  # by node key: nodes with a cap of their own
    loop: asyncio.AbstractEventLoop = field(init=False)
    loop_thread: int = field(init=False)

    def __post_init__(self) -> None:
        self.slots = Slots(self.concurrency)
        self.loop, self.loop_thread = asyncio.get_running_loop(), threading.get_ident()

    def call_slots(self, node_key: str, cap: int) -> Slots | NodeSlots:
        """What one call of node `node_key` holds: the run's slots, plus the node's own when `cap` > 0."""
        if cap <= 0:
            return self.slots
        found = self.node_slots.get(node_key)
        if found is None:
            found = self.node_slots[node_key] = NodeSlots(Slots(cap), self.slots)
        return found
