"""`RunBoard`: the CLI's picture of one run — the engine's one `RunProjection`, set up for a workflow.

The CLI does not fold events itself: `RunBoard` is a `RunProjection` (node rows, calls with their
streamed text, verdicts, totals, problems) that knows the workflow's nodes — and, given the run's plan,
its sub-graphs' nodes, titled "Sub-graph › Node" — before the first event, so the live table lists
every node from the start. Invariant: it changes only in `apply(event)`, in stream order, and knows
nothing about how it is displayed (progress and summary renderers read it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.projection import NodeRow, RunProjection
from engine.runtime.plan_nodes import plan_nodes

if TYPE_CHECKING:
    from engine.graph.model import Workflow
    from engine.runtime import RunPlan

__all__ = ["NodeRow", "RunBoard"]


class RunBoard(RunProjection):
    @classmethod
    def for_workflow(cls, workflow: Workflow, plan: RunPlan | None = None, **kw: Any) -> RunBoard:
        """A board with a row per node; with the run's `plan`, the nodes of its sub-graphs too (right
        after their sub-graph node, keyed as their events name them)."""
        if plan is not None:
            nodes = plan_nodes(plan)
        else:
            nodes = [(n.id, n.title or n.id, n.role) for n in workflow.nodes.values()]
        board = cls.for_nodes(nodes, keep_events=False, **kw)
        board.workflow_name = workflow.name
        return board

    @property
    def rows(self) -> dict[str, NodeRow]:
        return self.nodes
