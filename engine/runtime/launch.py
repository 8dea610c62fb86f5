"""What starting and following a run needs, shared by every front end (the CLI and the window).

- `input_specs(workflow)`: the run's inputs (one per Input node: name, default, description);
- `prepare(workflow, base_dir=...)`: validate (errors refuse the run, as `CompileError`) and compile;
- `start_run(plan, store=..., ...)`: a `Run` on the offline-first gateway (`sim/...` in-process,
  everything else through litellm, imported on the first such call), recorded in `store`;
- `follow(run, projection, on_batch)`: fold the run's event stream into a `RunProjection` batch by
  batch (one call of `on_batch` per batch, never one per event) until `RunFinished`, and return the
  run's result.

Invariant: a front end never folds events itself and never picks a gateway of its own: a run started
from the window is recorded, announced and folded exactly as one started with `triadic run`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from engine import events as ev

if TYPE_CHECKING:
    from engine.graph.model import Workflow
    from engine.projection import RunProjection
    from engine.runtime.control import HumanPolicy
    from engine.runtime.plan import RunPlan
    from engine.runtime.run import Run, RunResult


@dataclass(frozen=True, slots=True)
class InputSpec:
    node_id: str
    name: str
    default: str
    description: str


def input_specs(workflow: Workflow) -> list[InputSpec]:
    """One entry per Input node, in the file's order (its title describes it)."""
    out = []
    for node in workflow.nodes.values():
        if node.role == "input":
            name = str(node.param("name") or node.id)
            default = node.param("default")
            out.append(InputSpec(node.id, name, "" if default is None else str(default), node.title or ""))
    return out


def prepare(workflow: Workflow, *, base_dir: Path | None = None,
            recorded: Mapping[str, Mapping[str, Any]] | None = None) -> RunPlan:
    """The frozen plan of `workflow`; raises `CompileError(problems)` when validation finds errors or
    it does not compile (a sub-graph file missing, a cross-model critic in its author's family).
    `recorded`: the sub-graph versions a recorded run used, compiled instead of today's files."""
    from engine.graph.validate import validate
    from engine.runtime.plan import CompileError, compile_workflow

    errors = [p for p in validate(workflow) if p.severity == "error"]
    if errors:
        raise CompileError(errors)
    return compile_workflow(workflow, base_dir=base_dir, recorded=recorded)


def start_run(plan: RunPlan, *, store: Any, inputs: dict[str, object] | None = None,
              model_overrides: dict[str, str] | None = None, human: HumanPolicy | Literal["person"] | None = None,
              gateway: Any = None, run_id: str | None = None, **extra: Any) -> Run:
    """A started `Run` of `plan`, recorded in `store`; raises `CompileError` for a bad model override.
    `human="person"`: a person answers through `Run.submit_human_decision` — every question, a human
    gate's and the recovery ladder's or an unapproved critic loop's alike (what a window wants;
    `None` asks only at human gates). `extra` goes to `Run` as is (tools, memory, lineage)."""
    from engine.llm.offline_first import OfflineFirstGateway
    from engine.runtime.control import HumanPolicy
    from engine.runtime.run import Run

    runs: list[Run] = []  # the run the person's answers go to, known once it is made (before it starts)
    if human == "person":
        human = HumanPolicy(decide=lambda node_id, _prompt, _artifact: runs[0].control.wait_human(node_id),
                            by="user")
    run = Run(plan, gateway=gateway if gateway is not None else OfflineFirstGateway(), inputs=inputs, store=store,
              model_overrides=model_overrides or None, human=human, run_id=run_id, **extra)
    runs.append(run)
    run.start()
    return run


async def follow(run: Run, projection: RunProjection,
                 on_batch: Callable[[list[ev.Event]], None] | None = None) -> RunResult:
    """Fold `run`'s events into `projection`, batch by batch, until it finishes; its result."""
    async for batch in run.event_batches():
        projection.apply_many(batch)
        if on_batch is not None:
            on_batch(batch)
        if type(batch[-1]) is ev.RunFinished:
            break
    return await run.wait()
