"""The one typed event vocabulary of a run.

Every step of a run is announced as a frozen event. The live GUI, the trace store, replay and
export all consume this one stream; nothing else describes a run.

Invariants:
- events are immutable and carry `run_id`, a per-run monotonically increasing
  `seq`, `ts` (seconds since the run started, from a monotonic clock), the `span_id` they belong to
  and that span's `parent_id` (run → node execution → LLM / tool call);
- an event is a frozen record, not a sequence (`engine.event_record`); its row — its kind, then its
  fields in declaration order (`record_row`) — is how the trace store packs it;
- `to_record` / `event_from_record` round-trip every event through plain JSON-able dicts (export
  and replay use them; the trace store packs the rows);
- events never carry secrets: requests are recorded without API keys or auth headers.
"""

from __future__ import annotations

from dataclasses import asdict, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.event_record import EventRecord

if TYPE_CHECKING:
    from engine.budget import BudgetKind

NodeState = Literal["queued", "running", "waiting", "done", "failed", "skipped", "cancelled"]
RunStatus = Literal["running", "succeeded", "failed", "cancelled", "budget_exceeded", "interrupted"]
Decision = Literal["approve", "revise", "reject"]


class Event(EventRecord):
    kind: ClassVar[str] = "event"
    run_id: str
    seq: int
    ts: float
    span_id: str | None = None
    parent_id: str | None = None

    def to_record(self) -> dict[str, Any]:
        record = asdict(self)
        record["kind"] = self.kind
        return record


class RunStarted(Event):
    kind: ClassVar[str] = "run_started"
    workflow_id: str
    workflow_name: str
    workflow_hash: str
    inputs: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    replay_of: str | None = None
    fork_of: str | None = None
    fork_at_seq: int | None = None


class RunPlanned(Event):
    """The run's plan, announced right after `RunStarted`: every node it may run, queued, so a view can
    show the whole run before its first node starts. `nodes` holds `[node id, title, role]` per node in
    the plan's order; a sub-graph's nodes follow their sub-graph node, keyed "subgraph/inner" as their
    events name them."""

    kind: ClassVar[str] = "run_planned"
    nodes: list[list[str]] = field(default_factory=list)


class RunFinished(Event):
    kind: ClassVar[str] = "run_finished"
    status: RunStatus
    reason: str = ""
    outputs: dict[str, Any] = field(default_factory=dict)
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    duration_s: float = 0.0


class NodeStateChanged(Event):
    kind: ClassVar[str] = "node_state"
    node_id: str
    state: NodeState
    attempt: int = 1
    round: int = 0
    detail: str = ""


class NodeOutput(Event):
    """A value (artifact) a node execution produced on one of its output ports."""

    kind: ClassVar[str] = "node_output"
    node_id: str
    port: str
    value: Any
    round: int = 0


class PlanEmitted(Event):
    kind: ClassVar[str] = "plan"
    node_id: str
    tasks: list[dict[str, Any]]
    replan: int = 0


class LLMCallStarted(Event):
    kind: ClassVar[str] = "llm_started"
    node_id: str
    model: str
    request: dict[str, Any]  # messages and parameters, never keys


class LLMTokenDelta(Event):
    kind: ClassVar[str] = "llm_delta"
    text: str


class LLMStreamRestarted(Event):
    """The call's stream broke and is retried from the start: the text streamed so far in this span
    (its earlier `LLMTokenDelta`s) is void; the deltas that follow are attempt `attempt`'s."""

    kind: ClassVar[str] = "llm_restart"
    attempt: int


class LLMCallRetrying(Event):
    """An attempt of the call failed with an error worth retrying (rate limit, 5xx, timeout): attempt
    `attempt` follows after `delay_s` seconds, in the same span."""

    kind: ClassVar[str] = "llm_retry"
    attempt: int
    error_type: str
    error: str
    delay_s: float = 0.0


class LLMCallFinished(Event):
    kind: ClassVar[str] = "llm_finished"
    node_id: str
    model: str
    content: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    error: str | None = None
    error_type: str | None = None
    response: dict[str, Any] = field(default_factory=dict)  # what replay serves back


class ToolCallStarted(Event):
    kind: ClassVar[str] = "tool_started"
    node_id: str
    tool: str
    arguments: dict[str, Any] = field(default_factory=dict)


class ToolCallFinished(Event):
    kind: ClassVar[str] = "tool_finished"
    node_id: str
    tool: str
    result: Any = None
    error: str | None = None
    latency_s: float = 0.0


class MemoryRead(Event):
    kind: ClassVar[str] = "memory_read"
    node_id: str
    memory: str
    scope: str
    key: str
    value: Any = None


class MemoryWritten(Event):
    kind: ClassVar[str] = "memory_write"
    node_id: str
    memory: str
    scope: str
    key: str
    value: Any = None
    admitted: bool = True
    reason: str = ""


class VerdictIssued(Event):
    kind: ClassVar[str] = "verdict"
    node_id: str
    subject_node_id: str
    decision: Decision
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    round: int = 0
    artifact_seq: int | None = None  # seq of the NodeOutput event judged
    judge_model: str | None = None


class BudgetUpdated(Event):
    """The run's usage so far, after each model call of a run that has a limit (or of a node that
    has one). The limits it counts against are the run's `RunStarted.settings["budget"]` (and the
    node's params); `limits` stays empty unless a producer has other limits to say. A run without
    limits announces no budget: its usage is in each `LLMCallFinished` and its totals in `RunFinished`."""

    kind: ClassVar[str] = "budget"
    tokens: int
    cost_usd: float
    elapsed_s: float  # the run's time as its deadline counts it: the time it was paused is left out
    limits: dict[str, float] = field(default_factory=dict)


class BudgetExceeded(Event):
    kind: ClassVar[str] = "budget_exceeded"
    budget: BudgetKind  # which limit: a run's, a sub-graph's or a node's (`engine.budget.LIMITS`)
    limit: float
    actual: float
    node_id: str | None = None


class RunPaused(Event):
    """The run holds: no further node starts (nodes already running go on to their end) until a
    `RunResumed`. `reason` "user": `Run.pause()`; "breakpoint": `node_id` has a breakpoint and is held
    before it starts (it stays queued). Announced once per change: pausing a held run says nothing."""

    kind: ClassVar[str] = "run_paused"
    reason: Literal["user", "breakpoint"]
    node_id: str | None = None  # the node held at its breakpoint


class RunResumed(Event):
    """The run goes on. `mode` "resume": nodes start freely again; "step": exactly one node, `node_id`,
    is let through (its `running` state follows) and the run holds again after it, with no
    `RunPaused` of its own. So a run holds from a `RunPaused` or a step until a "resume"."""

    kind: ClassVar[str] = "run_resumed"
    mode: Literal["resume", "step"]
    node_id: str | None = None  # the node a step let through


class HumanDecisionRequested(Event):
    kind: ClassVar[str] = "human_requested"
    node_id: str
    prompt: str
    artifact: Any = None


class HumanDecisionMade(Event):
    kind: ClassVar[str] = "human_decided"
    node_id: str
    decision: Literal["approve", "reject", "edit"]
    edited: Any = None
    by: str = "user"
    reason: str = ""  # why, when the person (or the front end deciding for them) said so


class ErrorRaised(Event):
    kind: ClassVar[str] = "error"
    message: str
    error_type: str = "Error"
    node_id: str | None = None
    recoverable: bool = False


class ReplayDiverged(Event):
    """A re-run from a recording (or a fork) made a call its recording does not hold as made: the
    request at that structural position differs (`detail` says what), or nothing was recorded there.
    `action` is what the run did: "stopped" (strict replay: the run fails) or "live" (fork mode: the
    call, and what follows it, went to the provider)."""

    kind: ClassVar[str] = "replay_diverged"
    node_id: str
    call: str  # the call's structural key (engine.replay.keys)
    detail: str
    action: Literal["stopped", "live"] = "stopped"


class ContractsChecked(Event):
    """The workflow's trace contracts, checked over the run's events just before `RunFinished` (or over
    a stored run on demand). `results` holds one dict per contract, in the file's order: ``index``,
    ``kind``, ``title``, ``contract`` (its form as the file holds it), ``passed``, and for a violation
    ``seq`` (the first event that breaks it) and ``reason``. `violated` counts the broken ones."""

    kind: ClassVar[str] = "contracts_checked"
    results: list[dict[str, Any]] = field(default_factory=list)
    violated: int = 0


class LogMessage(Event):
    kind: ClassVar[str] = "log"
    message: str
    level: Literal["debug", "info", "warning", "error"] = "info"
    node_id: str | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        RunStarted, RunPlanned, RunFinished, NodeStateChanged, NodeOutput, PlanEmitted, LLMCallStarted,
        LLMTokenDelta, LLMStreamRestarted, LLMCallRetrying, LLMCallFinished, ToolCallStarted, ToolCallFinished,
        MemoryRead, MemoryWritten, VerdictIssued, BudgetUpdated, BudgetExceeded, HumanDecisionRequested,
        HumanDecisionMade, ErrorRaised, LogMessage, RunPaused, RunResumed, ReplayDiverged, ContractsChecked,
    )
}


def event_from_record(record: dict[str, Any]) -> Event:
    """Rebuild an event from `Event.to_record()` output; unknown keys are ignored."""
    cls = EVENT_TYPES.get(str(record.get("kind")))
    if cls is None:
        raise ValueError(f"unknown event kind {record.get('kind')!r}")
    names = _FIELD_NAMES[cls]
    return cls(**{k: v for k, v in record.items() if k in names})


_FIELD_NAMES: dict[type[Event], frozenset[str]] = {
    cls: frozenset(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}
