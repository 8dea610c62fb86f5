"""Re-running a recorded run from its recording: what it needs, and starting it.

- `load_source(store, run_id)`: the recorded run, its recording and its workflow version (the one
  it ran, `store.workflow_version(run.workflow_hash)`), or `ReplayError` saying why it cannot be replayed;
- what today's file changes in the recorded versions is said before a re-run (`engine.replay.changes`);
- `prepare_replay(source, ...)` compiles the recorded version (the plan's hash must be the recorded
  one) and makes the replay's gateway, tools, memory and human policy; `start_replay(setup, store)`
  starts it as a new run whose `RunStarted.replay_of` names the source (or `fork_of` / `fork_at_seq`).

Invariants: the re-run runs the recorded workflow version — and the recorded version of each sub-graph
(`engine.runtime.sub_graph_versions`), not today's file — with the recorded inputs, model overrides
and seed; in strict mode nothing leaves the process (the live gateway is never called).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.replay.gateway import Mode, ReplayGateway
from engine.replay.recording import Recording
from engine.replay.services import ReplayMemory, ReplayTools, replay_human
from engine.runtime.sub_graph_versions import SubGraphVersionMissing, recorded_documents, recorded_hashes

if TYPE_CHECKING:
    from engine.llm.types import ChatGateway
    from engine.runtime.control import HumanPolicy
    from engine.runtime.plan import RunPlan
    from engine.runtime.run import Run
    from engine.store import RunSummary, TraceStore


class ReplayError(ValueError):
    """The run cannot be re-run from its recording; the message says why."""


@dataclass(slots=True)
class ReplaySource:
    run: RunSummary
    recording: Recording
    document: dict[str, Any]
    sub_graphs: dict[str, dict[str, Any]] = field(default_factory=dict)  # node path → the version it ran


@dataclass(slots=True)
class ReplaySetup:
    source: ReplaySource
    plan: RunPlan
    gateway: ReplayGateway
    tools: ReplayTools
    memory: ReplayMemory
    human: HumanPolicy
    inputs: dict[str, object]
    overrides: dict[str, str]
    lineage: dict[str, Any] = field(default_factory=dict)


def finished_run(store: TraceStore, run_id: str, *, doing: str,
                 error: type[Exception] = ReplayError) -> tuple[RunSummary, dict[str, Any]]:
    """The finished run `run_id` (an id or unique prefix) and the workflow version it ran, or `error` saying
    which is missing (`doing`: what the caller wants to do with it, e.g. "replay", "export")."""
    run = store.get_run(run_id)
    if run is None:
        raise error(f"no run {run_id!r} in the store")
    if run.status == "running":
        raise error(f"run {run.id[:12]} is still running; {doing} it once it has finished")
    document = store.workflow_version(run.workflow_hash)
    if document is None:
        raise error(f"run {run.id[:12]}: its workflow version {run.workflow_hash[:12]} is not in the store")
    return run, document


def load_source(store: TraceStore, run_id: str) -> ReplaySource:
    run, document = finished_run(store, run_id, doing="replay")
    recording = Recording.from_events(run.id, store.iter_events(run.id))
    if recording.started is None:
        raise ReplayError(f"run {run.id[:12]}: its recording has no RunStarted event")
    try:
        sub_graphs = recorded_documents(store, recorded_hashes(recording.started))
    except SubGraphVersionMissing as exc:
        raise ReplayError(f"run {run.id[:12]}: {exc}") from None
    return ReplaySource(run, recording, document, sub_graphs)


def prepare_replay(source: ReplaySource, *, mode: Mode = "strict", live: ChatGateway | None = None,
                   base_dir: Path | None = None, document: dict[str, Any] | None = None,
                   gateway: ReplayGateway | None = None, lineage: dict[str, Any] | None = None,
                   human: HumanPolicy | None = None) -> ReplaySetup:
    """The replay of `source` (strict: every call served; fork: what diverges runs on `live`).
    `document` replaces the recorded version (a fork's edited copy); `gateway` a fork's own; `human`
    answers (fork mode) the gates the recording never answered."""
    from engine.graph.format import workflow_from_dict
    from engine.runtime.launch import prepare

    edited = document is not None
    plan = prepare(workflow_from_dict(document if edited else source.document), base_dir=base_dir,  # type: ignore[arg-type]
                   recorded=source.sub_graphs)
    if not edited and plan.workflow_hash != source.run.workflow_hash:
        raise ReplayError(f"the stored workflow version compiles to {plan.workflow_hash[:12]}, "
                          f"not the recorded {source.run.workflow_hash[:12]}")
    started = source.recording.started
    assert started is not None
    recording = source.recording
    if gateway is None:
        gateway = ReplayGateway(recording, mode=mode, live=live)
    return ReplaySetup(source, plan, gateway, ReplayTools(recording, live=mode == "fork"), ReplayMemory(recording),
                       replay_human(recording, human if mode == "fork" else None), dict(started.inputs),
                       dict(started.settings.get("model_overrides") or {}),
                       lineage if lineage is not None else {"replay_of": source.run.id})


def start_replay(setup: ReplaySetup, store: TraceStore | None, *, run_id: str | None = None) -> Run:
    from engine.runtime.launch import start_run

    run = start_run(setup.plan, store=store, inputs=setup.inputs, model_overrides=setup.overrides or None,
                    human=setup.human, gateway=setup.gateway, run_id=run_id, tools=setup.tools,
                    memory=setup.memory, lineage=setup.lineage)
    setup.gateway.attach(run.hub)
    setup.tools.hub, setup.tools.sequencer = run.hub, setup.gateway.sequencer
    return run
