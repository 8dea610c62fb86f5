"""The OTLP/HTTP traces URL of an endpoint a person typed (no OpenTelemetry import: a settings dialog
checks addresses with it without loading the SDK)."""

from __future__ import annotations

from urllib.parse import urlsplit

TRACES_PATH = "/v1/traces"


class EndpointError(ValueError):
    """An endpoint that is not an http(s) URL; the message says what was given and what is expected."""


def traces_url(endpoint: str) -> str:
    """The OTLP traces URL of `endpoint`: a bare `http://host:port` gets `/v1/traces` appended."""
    text = endpoint.strip()
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise EndpointError(f"OTLP endpoint {endpoint!r}: expected an http:// or https:// URL, "
                            "e.g. http://127.0.0.1:4318")
    return text if parts.path not in ("", "/") else text.rstrip("/") + TRACES_PATH
