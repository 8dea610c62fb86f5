"""The role catalog: every role of the product brief with its typed ports and parameters.

The catalog is data: the validator, the file format, the inspector form and the runtime all read
it, so a role's ports and parameters are declared once, here.

Invariant: pure data, no behaviour; the runtime's role implementations live in `engine.roles`.
"""

from __future__ import annotations

from engine.graph.specs import DEFAULT_MODEL, ParamSpec, PortSpec, Role, RoleSpec

_MODEL = ParamSpec("model", "model", DEFAULT_MODEL, "Model id: sim/..., local/smollm2 or any litellm model")
_API_BASE = ParamSpec("api_base", "str", "",
                      "Address of an OpenAI-compatible server for this node's model, e.g. http://localhost:8000/v1 "
                      "(llama.cpp server, vLLM, LM Studio; empty: the provider's own)")
_TEMP = ParamSpec("temperature", "float", 0.0, "Sampling temperature", 0.0, 2.0)
_SYSTEM = ParamSpec("system_prompt", "text", "", "System prompt")
_MAX_TOKENS = ParamSpec("max_tokens_budget", "int", 0, "Per-node token budget (0 = none)", 0, 1e9)
_MAX_COST = ParamSpec("max_cost_usd", "float", 0.0, "Per-node cost budget in USD (0 = none)", 0.0, 1e6)
_RETRIES = ParamSpec("retries", "int", 2, "Retries on provider errors", 0, 10)
_TIMEOUT = ParamSpec("timeout_s", "float", 60.0, "Timeout per call in seconds", 0.1, 3600.0)
_MAX_CALLS = ParamSpec("max_calls_budget", "int", 0, "Per-node budget of model calls over the run (0 = none)", 0, 1e6)
_DEADLINE = ParamSpec("deadline_s", "float", 0.0,
                      "Per-node wall-clock budget in seconds for one execution, its loops included (0 = none)",
                      0.0, 86400.0)
_SIM = ParamSpec("sim", "json", {}, "Simulated-provider settings for sim/... models: latency_ms, tokens_per_s, faults, ...")
_CONCURRENCY_HELP = ("Most of this node's model and tool calls at once (its tasks, samples or items run in "
                     "parallel), within the run's concurrency (0 = only the run's cap)")


def _concurrency(default: int = 0) -> ParamSpec:
    """The per-node cap of a role that runs work in parallel inside one node (same meaning everywhere)."""
    return ParamSpec("concurrency", "int", default, _CONCURRENCY_HELP, 0, 1000)


_LLM = (_MODEL, _API_BASE, _SYSTEM, _TEMP, _RETRIES, _TIMEOUT, _MAX_TOKENS, _MAX_COST, _MAX_CALLS, _DEADLINE, _SIM)

_FEEDBACK = PortSpec("feedback", "verdict", help="Critic or verifier verdict asking for a revision")


def _spec(role: Role, label: str, summary: str, **kw: object) -> RoleSpec:
    return RoleSpec(role, label, summary, **kw)  # type: ignore[arg-type]


ROLES: dict[Role, RoleSpec] = {
    s.role: s
    for s in (
        _spec(Role.INPUT, "Input", "A run input, given with --input name=value",
              inputs=(), outputs=(PortSpec("value", "any"),),
              params=(ParamSpec("name", "str", "goal", "Input name"),
                      ParamSpec("default", "text", "", "Value when the run does not give one"))),
        _spec(Role.OUTPUT, "Output", "A result of the run",
              inputs=(PortSpec("value", "any", required=True),), outputs=(),
              params=(ParamSpec("name", "str", "result", "Output name"),)),
        _spec(Role.PLANNER, "Planner", "Turns a goal into a plan of tasks with dependencies",
              inputs=(PortSpec("goal", "text", required=True), _FEEDBACK),
              outputs=(PortSpec("plan", "plan"),),
              params=(*_LLM,
                      ParamSpec("prompt", "text", "Plan how to achieve: {goal}", "Prompt template"),
                      ParamSpec("max_tasks", "int", 8, "Most tasks in one plan", 1, 1000),
                      ParamSpec("max_replans", "int", 2, "Replans after failure or feedback", 0, 20)),
              loop_bound="max_replans", uses_llm=True),
        _spec(Role.EXECUTOR, "Executor", "Carries out one task with its own isolated context",
              inputs=(PortSpec("task", "task", required=True),
                      PortSpec("context", "any", multiple=True), _FEEDBACK),
              outputs=(PortSpec("result", "text"),),
              params=(*_LLM,
                      ParamSpec("prompt", "text", "{task}", "Prompt template"),
                      ParamSpec("max_tool_turns", "int", 4, "Most model turns of the tool loop (each one model call)", 1, 100),
                      ParamSpec("tools", "list", [], "Tools this node may call (allow-list)"),
                      ParamSpec("read_only_tools", "bool", False,
                                "Offer and allow only the listed tools that do not write"),
                      _concurrency()),
              uses_llm=True),
        _spec(Role.CRITIC, "Critic", "Judges an artifact: approve / revise / reject with reasons",
              inputs=(PortSpec("subject", "any", required=True),),
              outputs=(PortSpec("verdict", "verdict"), PortSpec("approved", "any")),
              params=(*_LLM,
                      ParamSpec("rubric", "text", "Is the answer correct, complete and clear?", "What to check"),
                      ParamSpec("max_rounds", "int", 3, "Most revise rounds", 0, 50),
                      ParamSpec("approve_score", "float", 0.7, "Score needed to approve", 0.0, 1.0),
                      ParamSpec("rollback_on_worse", "bool", True, "Keep the best-so-far if a revision scores worse"),
                      ParamSpec("require_other_family", "bool", False, "Model must come from another provider family than the author's")),
              loop_bound="max_rounds", uses_llm=True),
        _spec(Role.VERIFIER, "Verifier", "Deterministic check without an LLM: expression, schema, regex, command, SQL",
              inputs=(PortSpec("subject", "any", required=True),),
              outputs=(PortSpec("verdict", "verdict"), PortSpec("passed", "any")),
              params=(ParamSpec("check", "choice", "python", "Kind of check",
                                choices=("python", "json_schema", "regex", "command", "sql")),
                      ParamSpec("expression", "text", "len(subject) > 0", "Expression, schema, pattern, command or query"),
                      ParamSpec("max_rounds", "int", 3, "Most fix rounds", 0, 50),
                      _TIMEOUT),
              loop_bound="max_rounds"),
        _spec(Role.ROUTER, "Router", "Sends work to one of several branches",
              inputs=(PortSpec("value", "any", required=True),),
              outputs=(),
              params=(ParamSpec("mode", "choice", "condition", "How to pick a branch",
                                choices=("condition", "classifier", "escalate")),
                      ParamSpec("routes", "list", ["a", "b"], "Branch names (one output port each)"),
                      ParamSpec("condition", "text", "'a'", "Python expression giving a branch name"),
                      _MODEL, _API_BASE,
                      ParamSpec("max_loops", "int", 3, "Most times a loop may pass this router", 0, 100)),
              loop_bound="max_loops", dynamic_outputs="routes", uses_llm=True),
        _spec(Role.MAP, "Map", "Fans a list out to parallel executors with a concurrency cap",
              inputs=(PortSpec("items", "list", required=True),),
              outputs=(PortSpec("results", "list"),),
              params=(*_LLM,
                      ParamSpec("prompt", "text", "{item}", "Prompt template per item"),
                      _concurrency(4)),
              uses_llm=True),
        _spec(Role.REDUCE, "Reduce", "Aggregates a list into one result",
              inputs=(PortSpec("items", "list", required=True, multiple=True),),
              outputs=(PortSpec("result", "text"),),
              params=(*_LLM,
                      ParamSpec("mode", "choice", "llm", "How to aggregate", choices=("llm", "concat")),
                      ParamSpec("prompt", "text", "Combine these results:\n{items}", "Prompt template")),
              uses_llm=True),
        _spec(Role.VOTE, "Vote", "k samples of one step, majority or critic-selected",
              inputs=(PortSpec("task", "task", required=True),),
              outputs=(PortSpec("result", "text"),),
              params=(*_LLM,
                      ParamSpec("prompt", "text", "{task}", "Prompt template"),
                      ParamSpec("k", "int", 3, "Samples", 1, 100),
                      ParamSpec("mode", "choice", "majority", "How to pick", choices=("majority", "critic")),
                      _concurrency()),
              uses_llm=True),
        _spec(Role.MEMORY, "Memory", "Reads from or writes to a named memory",
              inputs=(PortSpec("value", "any"), PortSpec("gate", "verdict")),
              outputs=(PortSpec("value", "any"),),
              params=(ParamSpec("memory", "str", "notes", "Memory name"),
                      ParamSpec("scope", "choice", "run", "Lifetime", choices=("run", "workflow", "global")),
                      ParamSpec("mode", "choice", "write", "Operation", choices=("read", "write", "append")),
                      ParamSpec("key", "str", "default", "Key"),
                      ParamSpec("gated", "bool", False, "Admit writes only when the gate verdict approves"))),
        _spec(Role.TOOL, "Tool", "Calls a Python function or an MCP server tool",
              inputs=(PortSpec("args", "any"),),
              outputs=(PortSpec("result", "any"),),
              params=(ParamSpec("tool", "str", "", "Tool name"),
                      ParamSpec("server", "str", "python", "'python' or an MCP stdio server command"),
                      ParamSpec("allow", "list", [], "Allowed tool names"),
                      ParamSpec("read_only", "bool", True, "Refuse tools that write"),
                      _TIMEOUT)),
        _spec(Role.HUMAN_GATE, "Human gate", "Pauses the run for approve / reject / edit",
              inputs=(PortSpec("subject", "any", required=True),),
              outputs=(PortSpec("approved", "any"), PortSpec("verdict", "verdict")),
              params=(ParamSpec("prompt", "text", "Approve this?", "Question shown to the person"),
                      ParamSpec("policy", "choice", "ask", "Headless policy", choices=("ask", "approve", "reject")))),
        _spec(Role.SUBGRAPH, "Sub-graph", "A workflow file used as a node",
              inputs=(PortSpec("input", "any"),),
              outputs=(PortSpec("output", "any"),),
              params=(ParamSpec("path", "str", "", "Workflow file (relative to this one); empty when embedded"),
                      ParamSpec("graph", "json", {}, "Embedded workflow (file-format dict) when no path is set"))),
    )
}


def role_spec(role: str | Role) -> RoleSpec | None:
    """The spec of a role by name, or None for an unknown role."""
    try:
        return ROLES[Role(role)]
    except ValueError:
        return None


__all__ = ["ROLES", "role_spec"]
