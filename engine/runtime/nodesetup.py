"""What the runtime reads of a node on every execution, worked out once when its `PlanNode` is made.

A node's params, role and edges are frozen in the plan, so the values the scheduler and the model
call derive from them (which inputs take every value, which are required, the forward and looping
out-edges, the loop bound, the deadline, the model-call settings, the node's own concurrency cap)
are computed once per plan, not once per execution.

Invariants: every value is exactly what the runtime used to compute from `node.param(...)` at run
time — same defaults, same conversions, in the same order. A value that does not convert (only a
parameter the role does not declare can hold one: validation only warns about those) is left
`None` here and converted at use, so the execution fails on it where and how it always did.
Compiling stays cheap for plans of thousands of nodes: what follows from a role alone (`RoleFacts`:
its spec, port sets, param defaults) is worked out once per role, and nodes whose model-call params
are equal share one (immutable) `CallSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from engine.fast_init import install_fast_init
from engine.graph.roles import role_spec
from engine.graph.specs import DEFAULT_MODEL, RoleSpec

if TYPE_CHECKING:
    from engine.runtime.plan import PlanEdge, PlanNode

DEFAULT_LOOP_BOUND = 3  # loops through a node whose role names no bound param
_NO_SIM: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class CallSettings:
    """A node's model-call parameters, as `call_llm` sends them."""

    retries: int
    api_base: str | None  # the node's OpenAI-compatible server (None: the provider's own)
    sim: Mapping[str, Any]  # the `sim` param without its `output` key (copied into each request)
    sim_output: Any  # `sim["output"]` ("sql" / "python"), sent as metadata `output` when set
    temperature: float
    timeout_s: float
    max_tokens: int  # the node's token budget (0 = none)
    max_cost_usd: float  # the node's cost budget (0 = none)
    max_calls: int  # the node's budget of calls (0 = none)
    limited: bool  # whether the node has any budget of its own (its calls then announce `BudgetUpdated`)


def call_settings(node: PlanNode) -> CallSettings:
    """The node's model-call settings; raises on a parameter that does not convert."""
    get = node.params.get
    retries = int(get("retries") or 0)
    sim: Mapping[str, Any] = _NO_SIM
    output = None
    raw_sim = get("sim")
    if raw_sim:
        sim = dict(raw_sim)
        output = sim.pop("output", None)
    temperature, timeout_s = float(get("temperature") or 0.0), float(get("timeout_s") or 60.0)
    max_tokens, max_cost = int(get("max_tokens_budget") or 0), float(get("max_cost_usd") or 0.0)
    max_calls = int(get("max_calls_budget") or 0)
    api_base = str(get("api_base") or "").strip() or None
    return CallSettings(retries, api_base, sim, output, temperature, timeout_s, max_tokens, max_cost, max_calls,
                        bool(max_tokens or max_cost or max_calls))


@dataclass(frozen=True, slots=True)
class NodeSetup:
    """`PlanNode.setup`: what each execution of the node reads of it."""

    model: str  # the node's model (a run's model overrides by role still come first)
    system_prompt: str  # "" when none
    multiple: frozenset[str]  # input ports that receive every value (the others their last one)
    required: tuple[str, ...]  # input ports without a value for which the node is skipped
    waits_for: int  # forward input edges: the node is ready once each is resolved
    forward: tuple[PlanEdge, ...]  # outgoing forward edges, in order
    loops: tuple[PlanEdge, ...]  # outgoing back edges that re-run a loop body (not a judge's feedback)
    loop_bound: int  # most times those loops run per execution
    deadline_s: float | None  # one execution's deadline (0 = none); None: convert at use
    call: CallSettings | None  # None (a role that makes no model calls, or a value that does not
    # convert): worked out — and failed on — at call time
    concurrency: int  # the node's own cap on its calls at once (0: only the run's), `node_cap`


install_fast_init(CallSettings)  # made for every node of every compiled plan
install_fast_init(NodeSetup)


@dataclass(frozen=True, slots=True)
class RoleFacts:
    """What is derived from a role's spec once per role (not per node)."""

    spec: RoleSpec | None
    multiple: frozenset[str]  # input ports that receive every value
    required: tuple[str, ...]  # input ports a node cannot run without
    defaults: Mapping[str, object]  # the param defaults (never handed out: see `fresh_defaults`)
    containers: tuple[str, ...]  # the params whose default is a list or dict

    def fresh_defaults(self) -> dict[str, object]:
        """A node's own copy of the defaults, as `RoleSpec.defaults()` makes it (lists and dicts copied)."""
        params = dict(self.defaults)
        for name in self.containers:
            value = params[name]
            params[name] = list(value) if isinstance(value, list) else dict(value)  # type: ignore[call-overload]
        return params


_ROLES: dict[str, RoleFacts] = {}


def role_facts(role: str) -> RoleFacts:
    """The facts of a role by name (for an unknown role: no spec, no ports, no params)."""
    facts = _ROLES.get(role)
    if facts is None:
        spec = role_spec(role)
        inputs = spec.inputs if spec else ()
        defaults = spec.defaults() if spec else {}
        facts = _ROLES[role] = RoleFacts(
            spec, frozenset(p.name for p in inputs if p.multiple), tuple(p.name for p in inputs if p.required),
            MappingProxyType(defaults), tuple(k for k, v in defaults.items() if isinstance(v, list | dict)))
    return facts


def node_setup(node: PlanNode) -> NodeSetup:
    facts, get = role_facts(node.role), node.params.get
    spec = facts.spec
    waits_for = 0
    for edge in node.inputs:
        if edge.kind == "forward":
            waits_for += 1
    forward: list[PlanEdge] = []
    loops: list[PlanEdge] = []
    for edge in node.outputs:
        if edge.kind == "forward":
            forward.append(edge)
        elif edge.target_port != "feedback":
            loops.append(edge)
    bound = int(get(spec.loop_bound) or 0) if spec and spec.loop_bound else DEFAULT_LOOP_BOUND
    deadline_s: float | None = None
    try:
        deadline_s = float(get("deadline_s") or 0.0)
    except Exception:  # not a number: converted (and failed on) at use
        pass
    call = _shared_call_settings(node) if spec and spec.uses_llm else None
    system_prompt = get("system_prompt")
    return NodeSetup(str(get("model") or DEFAULT_MODEL), str(system_prompt) if system_prompt else "",
                     facts.multiple, facts.required, waits_for,
                     node.outputs if len(forward) == len(node.outputs) else tuple(forward), tuple(loops), bound,
                     deadline_s, call, node_cap(spec, get("concurrency")))


def node_cap(spec: RoleSpec | None, value: Any) -> int:
    """A node's own cap on its calls at once: its `concurrency` param when its role declares one and it
    is a positive whole number; 0 (only the run's cap) otherwise — 0, empty, or a value validation
    refuses (a plan is only compiled from a valid workflow)."""
    if spec is None or spec.param("concurrency") is None:
        return 0
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


_SHARED_CALLS: dict[tuple[Any, ...], CallSettings] = {}  # by the raw params they were made from
_SHARED_CALLS_KEPT = 1024


def _shared_call_settings(node: PlanNode) -> CallSettings | None:
    """`call_settings(node)` (None when a value does not convert), one object for all the nodes whose
    model-call params are equal — most nodes of a large plan keep their role's defaults. Equal params
    make equal settings (equal numbers convert alike), and settings are immutable. A node with a
    `sim` dict, or a param that is a list or object, gets its own."""
    get = node.params.get
    key = (get("retries"), get("temperature"), get("timeout_s"), get("max_tokens_budget"),
           get("max_cost_usd"), get("max_calls_budget"), get("api_base"))
    shared = not get("sim")
    try:
        found = _SHARED_CALLS.get(key) if shared else None
    except TypeError:  # an unhashable value (a list or object)
        shared, found = False, None
    if found is None:
        try:
            found = call_settings(node)
        except Exception:  # a value that does not convert: worked out (and failed on) at call time
            return None
        if shared and len(_SHARED_CALLS) < _SHARED_CALLS_KEPT:
            _SHARED_CALLS[key] = found
    return found
