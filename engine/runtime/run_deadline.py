"""The run's wall-clock deadline: which nodes it cut off, for the reason the run ends with.

A run's `deadline_s` is an `asyncio.timeout` around its graph; once it fires, the graph winds down
and marks every unfinished node cancelled, so by the time the run learns of the timeout nothing is
running any more. `DeadlineWatch` notes the nodes running (or waiting for a person) at the deadline
itself: a timer at the same loop time as the timeout's, run in the same loop iteration, before any
task has seen the cancel. `deadline_reason` says the hit and names those nodes ("… while Execute
(executor), Review (critic) were running and Approve (gate) was waiting for a person").

Invariants: the watch only reads the run's node states (`EventHub.node_states`: nodes of sub-graphs
too, by their prefixed ids) and is disarmed when the run's graph ends, hit or not; the
`BudgetExceeded` event is unchanged — a run budget names no node of its own (`node_id` None), the
nodes cut off are in the run's reason.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from engine.runtime.plan import RunPlan


class DeadlineWatch:
    """Notes, at the run's deadline, the nodes running or waiting then (plan order; sub-graphs' after)."""

    def __init__(self, node_states: Mapping[str, str]) -> None:
        self._states = node_states
        self._timer: asyncio.TimerHandle | None = None
        self.cut: list[tuple[str, str]] = []  # (node key, state) at the deadline

    def arm(self, when: float | None) -> None:
        """Note the nodes at loop time `when` (the timeout's `when()`; None: no deadline)."""
        self.disarm()
        if when is not None:
            self._timer = asyncio.get_running_loop().call_at(when, self._note)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _note(self) -> None:
        self._timer = None
        self.cut = [(key, state) for key, state in self._states.items() if state in ("running", "waiting")]


def deadline_reason(plan: RunPlan, elapsed_s: float, cut: list[tuple[str, str]]) -> str:
    """"run deadline_s budget exceeded: 2.0 s > limit 2.0 s while A (a), B (b) were running" (and
    "… and Gate (g) was waiting for a person"); no "while" when no node was at work then."""
    reason = f"run deadline_s budget exceeded: {elapsed_s:.3g} s > limit {plan.budget.deadline_s:g} s"
    keys = {key for key, _ in cut}
    # a sub-graph node is running while its inner nodes are: name the innermost ones only
    inner = [(key, state) for key, state in cut if not any(k.startswith(key + "/") for k in keys)]
    running = [label(plan, key) for key, state in inner if state == "running"]
    waiting = [label(plan, key) for key, state in inner if state == "waiting"]
    said = " and ".join(c for c in (_clause(running, "running"), _clause(waiting, "waiting for a person")) if c)
    return f"{reason} while {said}" if said else reason


def _clause(names: list[str], doing: str) -> str:
    if not names:
        return ""
    return f"{', '.join(names)} {'was' if len(names) == 1 else 'were'} {doing}"


def label(plan: RunPlan, key: str) -> str:
    """The node `key` ("sub/inner" for a node of a sub-graph) as "Title (key)"; the key when unknown."""
    title = _title(plan, key)
    return f"{title} ({key})" if title else key


def _title(plan: RunPlan, key: str) -> str:
    head, _, rest = key.partition("/")
    node = plan.nodes.get(head)
    if node is None:
        return ""
    if rest:
        return _title(plan.subplans[head], rest) if head in plan.subplans else ""
    return node.title or node.role
