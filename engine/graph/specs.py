"""Types that describe roles: port types and their compatibility, port and parameter specs.

The catalog of concrete roles built from these lives in `engine.graph.roles`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

ParamKind = Literal["str", "text", "int", "float", "bool", "model", "choice", "list", "json"]
PortType = Literal["any", "text", "task", "plan", "list", "json", "verdict"]

DEFAULT_MODEL = "sim/default"

# destination type -> source types it accepts ("any" on either side always matches)
_ACCEPTS: dict[str, frozenset[str]] = {
    "text": frozenset({"text", "json"}),
    "task": frozenset({"task", "plan", "text"}),
    "list": frozenset({"list", "plan"}),
    "json": frozenset({"json", "list", "plan", "verdict"}),
    "plan": frozenset({"plan"}),
    "verdict": frozenset({"verdict"}),
}


def types_compatible(source: str, target: str) -> bool:
    """Whether an output port of type `source` may feed an input port of type `target`."""
    if source == "any" or target == "any":
        return True
    return source in _ACCEPTS.get(target, frozenset({target}))


class Role(StrEnum):
    INPUT = "input"
    OUTPUT = "output"
    PLANNER = "planner"
    EXECUTOR = "executor"
    CRITIC = "critic"
    VERIFIER = "verifier"
    ROUTER = "router"
    MAP = "map"
    REDUCE = "reduce"
    VOTE = "vote"
    MEMORY = "memory"
    TOOL = "tool"
    HUMAN_GATE = "human_gate"
    SUBGRAPH = "subgraph"


@dataclass(frozen=True, slots=True)
class PortSpec:
    name: str
    type: PortType = "any"
    required: bool = False  # inputs only: the node cannot run without it
    multiple: bool = False  # inputs only: may take several edges
    help: str = ""


@dataclass(frozen=True, slots=True)
class ParamSpec:
    name: str
    kind: ParamKind
    default: object = None
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int = 100_000

    @property
    def label(self) -> str:
        """The name a person reads in a form: "timeout_s" → "Timeout (s)", "max_cost_usd" → "Cost budget (USD)"."""
        return _PARAM_LABELS.get(self.name) or _humanize(self.name)


_UNITS = {"s": "(s)", "ms": "(ms)", "usd": "(USD)"}
_PARAM_LABELS = {
    "max_tokens_budget": "Token budget", "max_cost_usd": "Cost budget (USD)", "deadline_s": "Time budget (s)",
    "max_calls_budget": "Model-call budget",
    "k": "Samples (k)", "read_only": "Read-only", "read_only_tools": "Read-only tools",
    "approve_score": "Approve at score", "rollback_on_worse": "Roll back a worse revision",
    "require_other_family": "Reviewer from another model family", "sim": "Simulation settings",
    "allow": "Allowed tools", "gated": "Gated by a verdict", "api_base": "Server address",
}


def _humanize(name: str) -> str:
    words = name.split("_")
    if len(words) > 1 and words[-1] in _UNITS:
        words[-1] = _UNITS[words[-1]]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, slots=True)
class RoleSpec:
    role: Role
    label: str
    summary: str
    inputs: tuple[PortSpec, ...]
    outputs: tuple[PortSpec, ...]
    params: tuple[ParamSpec, ...] = ()
    loop_bound: str | None = None  # name of the int param that bounds loops through this node
    uses_llm: bool = False
    dynamic_outputs: str | None = None  # list param whose items name extra output ports
    param_index: dict[str, ParamSpec] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.param_index.update({p.name: p for p in self.params})

    def param(self, name: str) -> ParamSpec | None:
        return self.param_index.get(name)

    def defaults(self) -> dict[str, object]:
        return {p.name: _copy_default(p.default) for p in self.params}


def _copy_default(value: object) -> object:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
