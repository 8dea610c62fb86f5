"""Provider families of model ids, for cross-model review (`require_other_family` on critics).

A family is the organisation whose model family it is, not the route used to reach it:
`gpt-4o-mini`, `openai/gpt-4o` and `sim/gpt-4o-mini` (the simulator priced as that model) are all
"openai". Unknown names fall back to the litellm provider prefix, then to the name itself.
"""

from __future__ import annotations

_NAME_PREFIXES: tuple[tuple[str, str], ...] = (
    ("gpt", "openai"), ("chatgpt", "openai"), ("o1", "openai"), ("o3", "openai"), ("o4", "openai"),
    ("davinci", "openai"), ("claude", "anthropic"), ("gemini", "google"), ("gemma", "google"),
    ("palm", "google"), ("llama", "meta"), ("meta-llama", "meta"), ("codellama", "meta"),
    ("mistral", "mistral"), ("mixtral", "mistral"), ("codestral", "mistral"), ("ministral", "mistral"),
    ("qwen", "alibaba"), ("deepseek", "deepseek"), ("command", "cohere"), ("phi", "microsoft"),
    ("grok", "xai"), ("smollm", "huggingface"),
)
_ROUTES = {"azure": "openai", "azure_ai": "openai", "vertex_ai": "google", "gemini": "google"}


def model_family(model: str) -> str:
    """The provider family of a model id ("sim/default" is the family "sim")."""
    parts = [p for p in model.strip().lower().split("/") if p]
    if not parts:
        return "unknown"
    if parts[0] in ("sim", "local"):
        rest = "/".join(parts[1:])
        if rest in ("", "default"):
            return "sim" if parts[0] == "sim" else "local"
        return model_family(rest)
    for part in reversed(parts):
        for segment in part.replace(":", ".").split("."):
            for prefix, family in _NAME_PREFIXES:
                if segment.startswith(prefix):
                    return family
    if len(parts) > 1:
        return _ROUTES.get(parts[0], parts[0])
    return parts[0]
