"""Whose server an address is: a provider's own API host, this machine, or somebody else's.

Used by the gateway to decide where a key may go (see `engine.llm.keys`): a provider's key goes only
to that provider's own hosts over https; any other address (a node's `api_base`) gets only the key
stored for that very server, and never over plain http to a host that is not this machine.

Invariant: addresses are compared normalized (`normalize_server`): scheme and host lower-cased,
default port dropped, no trailing slash, no query, fragment or user info.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

# The hosts each provider's own API answers on (exact host, or ".suffix" for a family of hosts).
PROVIDER_HOSTS: dict[str, tuple[str, ...]] = {
    "openai": ("api.openai.com",),
    "anthropic": ("api.anthropic.com",),
    "gemini": ("generativelanguage.googleapis.com",),
    "mistral": ("api.mistral.ai",),
    "groq": ("api.groq.com",),
    "deepseek": ("api.deepseek.com",),
    "cohere": ("api.cohere.ai", "api.cohere.com"),
    "cohere_chat": ("api.cohere.ai", "api.cohere.com"),
    "together_ai": ("api.together.xyz", "api.together.ai"),
    "openrouter": ("openrouter.ai",),
    "xai": ("api.x.ai",),
    "fireworks_ai": ("api.fireworks.ai",),
    "perplexity": ("api.perplexity.ai",),
    "azure": (".openai.azure.com", ".cognitiveservices.azure.com", ".services.ai.azure.com"),
    "huggingface": ("api-inference.huggingface.co", "router.huggingface.co", ".endpoints.huggingface.cloud"),
}
_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize_server(url: str) -> str:
    """`url` as the key of a server: "https://host[:port]/path" (ValueError when it is no http(s) URL)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an http:// or https:// server address: {url!r}")
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    port = parts.port
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return f"{scheme}://{netloc}{parts.path.rstrip('/')}"


def is_loopback(url: str) -> bool:
    """Whether `url` names this machine (localhost, 127.0.0.0/8, ::1)."""
    host = (urlsplit(url.strip()).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_plain_http(url: str) -> bool:
    return urlsplit(url.strip()).scheme.lower() == "http"


def is_provider_host(provider: str, url: str) -> bool:
    """Whether `url` is one of `provider`'s own API hosts, over https."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() != "https" or not host:
        return False
    return any(host == h or (h.startswith(".") and host.endswith(h)) for h in PROVIDER_HOSTS.get(provider, ()))


def plain_http_refusal(url: str) -> str:
    return (f"refusing to send an API key to {normalize_server(url)} over plain http: the server is not "
            "on this machine, so anyone on the way could read the key. Use its https:// address, or "
            "delete the key stored for it if it needs none")


__all__ = ["PROVIDER_HOSTS", "is_loopback", "is_plain_http", "is_provider_host", "normalize_server",
           "plain_http_refusal"]
