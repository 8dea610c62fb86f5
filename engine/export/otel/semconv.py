"""The OpenTelemetry GenAI semantic conventions this export writes, and Triadic's own attributes.

Span operations (`gen_ai.operation.name`): `invoke_workflow` (a run), `invoke_agent` (one node
execution), `chat` (a model call), `execute_tool` (a tool call). A critic's or verifier's verdict is a
`gen_ai.evaluation.result` event on the span of the node execution it judged. Attributes without a
GenAI convention (cost, node role, run status) use the `triadic.` namespace.
"""

from __future__ import annotations

OPERATION = "gen_ai.operation.name"
PROVIDER = "gen_ai.provider.name"
REQUEST_MODEL = "gen_ai.request.model"
RESPONSE_MODEL = "gen_ai.response.model"
REQUEST_TEMPERATURE = "gen_ai.request.temperature"
REQUEST_MAX_TOKENS = "gen_ai.request.max_tokens"
REQUEST_SEED = "gen_ai.request.seed"
FINISH_REASONS = "gen_ai.response.finish_reasons"
INPUT_TOKENS = "gen_ai.usage.input_tokens"
OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
AGENT_NAME = "gen_ai.agent.name"
AGENT_ID = "gen_ai.agent.id"
TOOL_NAME = "gen_ai.tool.name"
TOOL_TYPE = "gen_ai.tool.type"
TOOL_ARGUMENTS = "gen_ai.tool.call.arguments"
TOOL_RESULT = "gen_ai.tool.call.result"
INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
ERROR_TYPE = "error.type"

EVALUATION_EVENT = "gen_ai.evaluation.result"
EVALUATION_NAME = "gen_ai.evaluation.name"
EVALUATION_SCORE = "gen_ai.evaluation.score.value"
EVALUATION_LABEL = "gen_ai.evaluation.score.label"
EVALUATION_EXPLANATION = "gen_ai.evaluation.explanation"

COST_USD = "triadic.cost_usd"
RUN_ID = "triadic.run.id"
RUN_STATUS = "triadic.run.status"
RUN_REASON = "triadic.run.reason"
WORKFLOW_ID = "triadic.workflow.id"
WORKFLOW_NAME = "triadic.workflow.name"
WORKFLOW_HASH = "triadic.workflow.hash"
NODE_ROLE = "triadic.node.role"
NODE_STATE = "triadic.node.state"
NODE_ATTEMPT = "triadic.node.attempt"
NODE_ROUND = "triadic.node.round"
CALL_RETRIES = "triadic.call.retries"
VERDICT_JUDGE = "triadic.verdict.judge_node"
VERDICT_ROUND = "triadic.verdict.round"
VERDICT_JUDGE_MODEL = "triadic.verdict.judge_model"

# litellm's provider names → the convention's well-known `gen_ai.provider.name` values.
PROVIDER_NAMES = {
    "openai": "openai", "anthropic": "anthropic", "gemini": "gcp.gemini", "vertex_ai": "gcp.vertex_ai",
    "bedrock": "aws.bedrock", "azure": "azure.ai.openai", "mistral": "mistral_ai", "groq": "groq",
    "deepseek": "deepseek", "cohere": "cohere", "cohere_chat": "cohere", "xai": "x_ai",
    "perplexity": "perplexity", "sim": "triadic.simulated", "local": "triadic.local",
}


def provider_name(provider: str, model: str) -> str:
    """The `gen_ai.provider.name` of a call: the gateway's provider, else the model's prefix."""
    name = provider or (model.split("/", 1)[0] if "/" in model else "")
    return PROVIDER_NAMES.get(name, name or "unknown")
