"""The runtime: compile a workflow into a frozen plan and run it on asyncio, announcing every step.

Public API: `compile_workflow(wf, *, base_dir=None) -> RunPlan` (raises `CompileError(problems)`),
`Run(plan, *, gateway, inputs=None, store=None, model_overrides=None, human=None, run_id=None,
tools=None, memory=None)` with `start()`, `await wait() -> RunResult`, `events()`, `cancel()`, `pause()`,
`resume()`, `step()`, `set_breakpoint(node_id, on=True)`, `event_batches()`, `submit_human_decision(node_id, decision,
edited=None, reason="")`, `state(node_id)`; `HumanPolicy`; `async execute(wf, **kw) -> RunResult`.

Semantics:
- Scheduling: a node starts when all its forward inputs are resolved; every ready node runs
  concurrently; model and tool calls share `settings.concurrency` slots, and a node that runs work
  in parallel (executor / vote given a plan, vote's k samples, map's items) holds its calls to its
  own `concurrency` param as well (0: only the run's cap; `RunServices.call_slots`).
  States: queued → running → (waiting) → done | failed | skipped | cancelled. A node whose required
  input got no value (failed / skipped source, unrouted router branch) is skipped, and so on down.
  The run fails if any node failed (reason: every failure), else succeeds.
- Plans: a planner emits `{"goal", "tasks": [{"id", "task", "depends_on"}]}`; an executor (or vote)
  given a plan runs one execution per task as a DAG by `depends_on` (independent tasks in parallel,
  each seeing its dependencies' results) and its `result` is the combined results.
- Critic / verifier loop: a `revise` verdict goes back along the judge's verdict → `feedback` edge;
  the loop body (that node up to the judge's subject author) re-runs with the verdict's reasons and
  the artifact, until approval or `max_rounds` revisions. The best-scoring artifact is kept; with
  `rollback_on_worse` a worse revision is not built upon and the best is the result. `reject` →
  replan via the nearest planner upstream (at most its `max_replans` per run), else the node fails
  with the reasons. Unapproved at the end → the run's `HumanPolicy` (if given) may approve or edit
  the best artifact → else the node fails. `require_other_family` critics whose model family
  equals their author's are refused at compile (and at `Run` with model overrides).
- Recovery ladder: the gateway retries retryable errors (`retries`), the runtime retries the call
  once more after a backoff → repair (malformed plan / verdict JSON gets one repair call; a judge's
  feedback revises an artifact) → replan (a node that still fails, or a failed revision inside a
  judge's loop, re-runs the nearest planner above it with the failure as feedback, within its
  `max_replans`) → human (the run's `HumanPolicy`: approve tries once more, edit gives the result,
  reject fails) → fail with the reason and what was tried (`recovery_ladder.py`, `roles/review.py`).
  Plans and verdicts are validated against JSON Schemas (`roles/reply_schemas.py`).
- Control: `pause()` / `resume()` / `step()` / breakpoints; each change of the hold is one
  `RunPaused` / `RunResumed` event, and the run's deadline does not count the time it holds.
- Router: `condition` (restricted expression over `value`, `text`, `round`), `classifier` (a model
  picks a route, routes in metadata), `escalate` (cheap → strong on a detected stall). Any other back
  edge that fires re-runs its loop body, at most the emitting node's loop bound times.
- Map: one call per item (cap `concurrency`); Reduce: concat or model; Vote: k samples, majority or
  judge-selected.
- Budgets: run limits (settings.budget, one `engine.budget.Budget`) and node limits (`max_tokens_budget`, `max_cost_usd`,
  `max_calls_budget`, `deadline_s`) are checked around every model call; token and cost limits also
  live while calls stream (a call crossing one is cut off, its tokens and cost so far counted; cost at
  the gateway's `price_of`), and deadlines (the run's, a node execution's) by a timer; the first hit emits
  `BudgetExceeded`, cancels in-flight work (spans closed) and ends the run "budget_exceeded".
  `BudgetUpdated` follows each model call of a run (or node) that has a limit.
- Judged artifacts: the other consumers of an author's output judged by a critic / verifier with a
  revise loop receive the judge's final (approved) artifact, not the first draft.
- Tools: tool nodes (`server` "python" or an MCP stdio command) and executors (`tools` allow-list,
  `mcp:<command>` entries) use the run's tools — the registry given to `Run(tools=...)`, else the
  built-ins, plus MCP servers the run starts once per command and stops when it ends; executors
  call them through the model's tool calls, at most `max_tool_turns` turns. Every call is a
  `ToolCallStarted` / `ToolCallFinished` pair with its arguments and result.
- Every loop is bounded (max_rounds, max_replans, loop bounds, retries, max_tool_turns, plan size), so
  every run terminates.
- Starting and following a run from a front end: `engine.runtime.launch` (`input_specs`, `prepare`,
  `start_run`, `follow` into an `engine.projection.RunProjection`) — the CLI and the window share it.
- Events: one emitter per run (seq, ts since start); `RunStarted`, then `RunPlanned` (every node the
  plan may run, queued), …, `RunFinished`; spans run → node execution → LLM / tool call;
  LLM spans record `LLMRequest.to_record()` and `LLMResponse.to_record()`.
"""

from __future__ import annotations

from engine.runtime.control import HumanPolicy
from engine.runtime.plan import CompileError, PlanEdge, PlanNode, RunPlan, compile_workflow
from engine.runtime.run import Run, RunResult, execute

__all__ = [
    "CompileError", "HumanPolicy", "PlanEdge", "PlanNode", "Run", "RunPlan", "RunResult",
    "compile_workflow", "execute",
]
