"""Parsing and checking `--input NAME=VALUE` and `--model-override ROLE=MODEL` against a workflow, and
applying the run-limit flags (`--max-cost`, `--max-tokens`, `--deadline`, `--seed`) to its settings.

Invariant: every rejection is a `CliError` naming the flag, the offending text and the valid choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from app.cli.errors import CliError

if TYPE_CHECKING:
    from engine.graph.model import Workflow


def parse_pairs(values: Sequence[str], flag: str, shape: str) -> dict[str, str]:
    """`["a=1", "b=x=y"]` → `{"a": "1", "b": "x=y"}`; the key must be non-empty and unique."""
    pairs: dict[str, str] = {}
    for raw in values:
        key, sep, value = raw.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CliError(f"{flag} {raw!r}: expected {shape}")
        if key in pairs:
            raise CliError(f"{flag} {raw!r}: {key!r} is given twice")
        pairs[key] = value
    return pairs


def input_names(workflow: Workflow) -> list[str]:
    return [str(n.param("name")) for n in workflow.nodes.values() if n.role == "input"]


def check_inputs(workflow: Workflow, inputs: dict[str, str], source: str) -> None:
    valid = input_names(workflow)
    for name in inputs:
        if name not in valid:
            choices = ", ".join(sorted(valid)) if valid else "none — the workflow has no Input node"
            raise CliError(f"--input {name}: {source} has no input named {name!r} (valid: {choices})")


def check_overrides(overrides: dict[str, str]) -> None:
    from engine.graph.roles import ROLES

    llm_roles = sorted(str(role) for role, spec in ROLES.items() if spec.uses_llm)
    for role, model in overrides.items():
        if role not in llm_roles:
            raise CliError(f"--model-override {role}={model}: unknown LLM role {role!r} "
                           f"(valid: {', '.join(llm_roles)})")
        if not model.strip():
            raise CliError(f"--model-override {role}=: the model is empty (e.g. {role}=sim/default)")


def apply_run_limits(workflow: Workflow, *, max_cost: float | None, max_tokens: float | None,
                     deadline: float | None, seed: float | None) -> None:
    """Set the run settings the flags give (None: keep the file's) on the loaded workflow, for this run."""
    b = workflow.settings.budget  # a Budget never changes: this run gets a new one
    workflow.settings.budget = replace(b, max_cost_usd=b.max_cost_usd if max_cost is None else float(max_cost),
                                       max_tokens=b.max_tokens if max_tokens is None else int(max_tokens),
                                       deadline_s=b.deadline_s if deadline is None else float(deadline))
    if seed is not None:
        workflow.settings.seed = int(seed)
