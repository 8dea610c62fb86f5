"""What every node execution of one run shares: emitter, budgets, control, gateway, caps.

Invariant: one `RunState` per run (sub-graphs share their parent's), created inside the event loop
(`loop` and `loop_thread` are that loop and the thread running it).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.events import VerdictIssued
from engine.llm.types import ChatGateway
from engine.runtime.budget import BudgetTracker
from engine.runtime.control import HumanPolicy, RunControl
from engine.runtime.hub import EventHub
from engine.runtime.slots import Slots


class NodeFailed(Exception):
    """A node cannot produce its outputs; the message is the reason shown to the user."""


@dataclass(slots=True)
class RunState:
    hub: EventHub
    gateway: ChatGateway
    budget: BudgetTracker
    control: RunControl
    seed: int
    concurrency: int
    workflow_id: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    human: HumanPolicy | None = None
    tools: Any = None  # engine.tools.ToolRegistry when given
    memory: Any = None  # engine.memory backend
    verdicts: list[VerdictIssued] = field(default_factory=list)
    replans: dict[str, int] = field(default_factory=dict)
    router_history: dict[str, list[str]] = field(default_factory=dict)
    slots: Slots = field(init=False)
    loop: asyncio.AbstractEventLoop = field(init=False)
    loop_thread: int = field(init=False)

    def __post_init__(self) -> None:
        self.slots = Slots(self.concurrency)
        self.loop, self.loop_thread = asyncio.get_running_loop(), threading.get_ident()
