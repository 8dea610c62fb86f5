"""What a role implementation sees of the run: its node, inputs, feedback, and run services.

Invariant: roles never touch the scheduler or the emitter directly; everything they do to the run
(model calls, tool calls, verdicts, plans, human questions, re-running their subject's author) goes
through a `NodeContext`, which stamps the node's span and id on every event. Tools go through the
run's `RunTools` (made on first use), whose MCP servers `Run` stops before it emits `RunFinished`.
"""

from __future__ import annotations

from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from engine.events import (
    Event,
    HumanDecisionMade,
    HumanDecisionRequested,
    NodeStateChanged,
    VerdictIssued,
)
from engine.llm.types import LLMResponse
from engine.runtime.control import HumanAnswer, HumanReply
from engine.runtime.llmcall import call_llm, model_for
from engine.runtime.plan import PlanNode
from engine.runtime.run_services import NodeFailed, RunServices
from engine.runtime.toolspan import ToolSpan, describe_error
from engine.tools.errors import ToolError

if TYPE_CHECKING:
    from engine.runtime.scheduler import GraphExecutor
    from engine.tools.runtools import RunTools

E = TypeVar("E", bound=Event)


class NodeContext:
    def __init__(self, services: RunServices, graph: GraphExecutor, node: PlanNode, inputs: Mapping[str, Any],
                 span_id: str, round: int = 0, feedback: Mapping[str, Any] | None = None, *,
                 key: str | None = None) -> None:
        self.services, self.graph, self.node = services, graph, node
        self.inputs = dict(inputs)
        self.span_id = span_id
        self.round = round
        raw = feedback if feedback is not None else inputs.get("feedback")
        self.feedback: Mapping[str, Any] | None = raw if raw is not None and isinstance(raw, Mapping) else None
        self.key = key if key is not None else graph.key(node.id)  # the node's id in the run's events

    def param(self, name: str) -> Any:
        return self.node.params.get(name)

    @property
    def model(self) -> str:
        return model_for(self.services, self.node)

    def emit(self, cls: type[E], **fields: Any) -> E:
        return self.services.hub.emit(cls, span_id=self.span_id, parent_id=self.graph.parent_span, **fields)

    async def llm(self, prompt: str, *, model: str | None = None, **metadata: Any) -> LLMResponse:
        """One model call with the node's system prompt; `metadata` goes to the provider."""
        system_prompt = self.node.setup.system_prompt
        messages: list[dict[str, Any]] = []
        if system_prompt:
            messages.append({"role": "system", "content": system_prompt})
        messages.append({"role": "user", "content": prompt})
        return await self.chat(messages, model=model, **metadata)

    def chat(self, messages: list[dict[str, Any]], *, model: str | None = None,
             tools: list[dict[str, Any]] | None = None, **metadata: Any) -> Coroutine[Any, Any, LLMResponse]:
        """One model call with explicit messages (and tools in OpenAI format), to await. A plain method
        returning `call_llm`'s coroutine: awaiting it adds no coroutine of its own."""
        metadata.setdefault("round", self.round)
        return call_llm(self.services, self.node, self.key, self.span_id, messages, metadata, model, tools)

    def verdict(self, subject: str, verdict: Mapping[str, Any], *, judge_model: str | None = None,
                artifact_seq: int | None = None) -> VerdictIssued:
        event = self.emit(VerdictIssued, node_id=self.key, subject_node_id=self.graph.key(subject),
                          decision=verdict["decision"], score=float(verdict.get("score", 0.0)),
                          reasons=list(verdict.get("reasons", [])), claims=list(verdict.get("claims", [])),
                          round=self.round, artifact_seq=artifact_seq, judge_model=judge_model)
        self.services.verdicts.append(event)
        return event

    async def rerun(self, start: str, end: str, *, feedback: Mapping[str, Any] | None = None,
                    start_inputs: Mapping[str, Any] | None = None, round: int = 0) -> dict[str, Any]:
        """Re-execute the nodes from `start` to `end` (the loop body) and return `end`'s new outputs."""
        return await self.graph.rerun_region(start, end, feedback=feedback, start_inputs=start_inputs, round=round)

    async def ask_human(self, prompt: str, artifact: Any, policy: str = "ask", *,
                        then_running: bool = True) -> HumanAnswer:
        """Ask the run's person (or policy); the node waits meanwhile, and is running again after the
        answer unless `then_running` is False (the caller announces the node's next state itself)."""
        self.emit(NodeStateChanged, node_id=self.key, state="waiting", round=self.round, detail=prompt)
        self.emit(HumanDecisionRequested, node_id=self.key, prompt=prompt, artifact=artifact)
        by = "policy"
        if policy in ("approve", "reject"):
            reply: HumanReply = (policy, None)  # type: ignore[assignment]
        elif self.services.human is not None:
            reply, by = await self.services.human.answer(self.key, prompt, artifact), self.services.human.by
        else:
            reply, by = await self.services.control.wait_human(self.key), "user"
        reason = str(reply[2]) if len(reply) > 2 else ""  # type: ignore[misc]
        self.emit(HumanDecisionMade, node_id=self.key, decision=reply[0], edited=reply[1], by=by, reason=reason)
        if then_running:
            self.emit(NodeStateChanged, node_id=self.key, state="running", round=self.round)
        return HumanAnswer(reply[0], reply[1], reason)

    def toolbox(self) -> RunTools:
        """The run's tools: the registry given to the run (default: the built-ins) plus the MCP servers
        it starts. Made on first use; `Run` closes it (stopping its servers) before `RunFinished`."""
        from engine.tools.runtools import RunTools

        tools = self.services.tools
        if not isinstance(tools, RunTools):
            tools = self.services.tools = RunTools(tools)
        return tools

    async def tool_server(self, command_line: str) -> str:
        """Start (once per run) the MCP stdio server `command_line`; its name, the prefix of its tools."""
        try:
            return await self.toolbox().server(command_line)
        except (ValueError, ToolError) as exc:
            raise NodeFailed(str(exc)) from exc

    async def call_tool(self, name: str, arguments: dict[str, Any], *, allow: list[str], read_only: bool,
                        timeout_s: float, errors: Literal["raise", "return"] = "raise") -> Any:
        """Call a tool of the run; its result. A failure (the tool's own error, a denial, a timeout)
        raises NodeFailed, or with `errors="return"` comes back as `{"error": message}` (for a
        model to read and react to). Both ends are recorded (`tool_span`): a call cut off by a cancel
        (the run's, or its budget's) still closes its span, as "cancelled"."""
        registry = self.toolbox()
        with self.tool_span(name, arguments) as span:
            try:
                async with self.services.call_slots(self.key, self.node.setup.concurrency):  # both caps
                    result = await registry.call(name, arguments, allow=allow, read_only=read_only,
                                                 timeout_s=timeout_s)
            except Exception as exc:
                error = describe_error(exc)
                span.finish(error=error)
                if errors == "return":
                    return {"error": error}
                raise NodeFailed(f"tool {name!r} failed: {exc}") from exc
            span.finish(result=result.value, error=result.error)
        if result.error:
            if errors == "return":
                return {"error": result.error}
            raise NodeFailed(f"tool {name!r} failed: {result.error}")
        return result.value

    def tool_span(self, tool: str, arguments: dict[str, Any]) -> ToolSpan:
        """The span of one tool call by this node, to use as `with ctx.tool_span(...) as span:`; it is
        closed on the way out whatever happens ("cancelled" on a cancel, the error when it raises)."""
        return ToolSpan(self.services.hub, parent_id=self.span_id, node_id=self.key, tool=tool, arguments=arguments)
