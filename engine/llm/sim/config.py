"""Settings of the simulated provider: latency, streaming, injected faults, pricing, critic behaviour.

A `SimConfig` is set on the Gateway (or SimGateway) and overridden per request by
`request.metadata["sim"]` (a dict with the same field names, e.g. `{"latency_ms": 200,
"fault_rate": 0.3, "price_as": "gpt-4o-mini"}`). With `call_tools`, a request offering tools gets
one tool call (of `tool`, with `tool_arguments`) until the conversation holds a tool result. With
`oracle` ("code_fix" / "hanoi"), a simulated author that knows a bundled example's answer
replies instead (see `oracles`). Unknown keys or wrong types raise
`BadRequestError` saying which setting is wrong.

Invariant: frozen and JSON-able (`to_dict`/`merged`), so it can travel in request metadata.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from engine.llm.types import BadRequestError

FAULT_KINDS = ("rate_limit", "server_error", "timeout", "malformed")
ORACLES = ("code_fix", "hanoi")


@dataclass(frozen=True, slots=True)
class SimConfig:
    latency_ms: float = 0.0  # time to first token
    tokens_per_s: float = 0.0  # streaming speed; 0 = instant
    chunk_words: int = 3  # words per streamed delta
    fault_rate: float = 0.0  # probability (seeded) that an attempt fails with one of `faults`
    faults: tuple[str, ...] = ("rate_limit", "server_error", "timeout")
    fail_first: int = 0  # the first N attempts of every call fail with `fail_kind`
    fail_kind: str = "rate_limit"
    price_as: str | None = None  # price tokens as this real model (litellm price map)
    revise_rate: float = 0.5  # probability a critic asks for a revision in round 0 (decays per round)
    reject_rate: float = 0.0  # probability a critic rejects outright (never in the last round)
    call_tools: bool = False  # offered tools and no tool result yet: answer with one tool call
    tool: str = ""  # the tool to call (name or wire name); "" = the first tool offered
    tool_arguments: dict[str, Any] | None = None  # its arguments; None = made up from its schema
    oracle: str = ""  # "" or one of ORACLES: a simulated author that knows the example's answer
    error_rate: float = 0.0  # oracle "hanoi": probability (seeded, per sample) of a wrong legal move
    data_dir: str = ""  # oracle "code_fix": folder of the attempt files (relative: examples data)
    first_attempt: str = ""  # oracle "code_fix": the file answered in round 0
    fixed_attempt: str = ""  # oracle "code_fix": the file answered after feedback

    def __post_init__(self) -> None:
        for kind in (*self.faults, self.fail_kind):
            if kind not in FAULT_KINDS:
                raise ValueError(f"unknown fault {kind!r}; known: {', '.join(FAULT_KINDS)}")
        for name in ("oracle", "data_dir", "first_attempt", "fixed_attempt"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be text")
        if self.oracle and self.oracle not in ORACLES:
            raise ValueError(f"unknown oracle {self.oracle!r}; known: {', '.join(ORACLES)}")
        for name in ("fault_rate", "revise_rate", "reject_rate", "error_rate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if self.chunk_words < 1:
            raise ValueError("chunk_words must be at least 1")
        if self.latency_ms < 0 or self.tokens_per_s < 0 or self.fail_first < 0:
            raise ValueError("latency_ms, tokens_per_s and fail_first must not be negative")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["faults"] = list(self.faults)
        return data

    def merged(self, overrides: Mapping[str, Any] | None, *, model: str = "sim") -> SimConfig:
        """This config with `overrides` applied; BadRequestError naming a bad or unknown setting."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise BadRequestError("metadata.sim must be an object of settings", provider="sim", model=model)
        known = {f.name for f in fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise BadRequestError(
                f"metadata.sim: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}",
                provider="sim", model=model,
            )
        values = dict(overrides)
        if "faults" in values:
            raw = values["faults"]
            values["faults"] = (raw,) if isinstance(raw, str) else tuple(raw)
        try:
            for key in ("latency_ms", "tokens_per_s", "fault_rate", "revise_rate", "reject_rate", "error_rate"):
                if key in values:
                    values[key] = float(values[key])
            for key in ("chunk_words", "fail_first"):
                if key in values:
                    values[key] = int(values[key])
            if "call_tools" in values and not isinstance(values["call_tools"], bool):
                raise ValueError("call_tools must be true or false")
            if values.get("tool_arguments") is not None and not isinstance(values["tool_arguments"], Mapping):
                raise ValueError("tool_arguments must be an object of argument values")
            return replace(self, **values)
        except (TypeError, ValueError) as exc:
            raise BadRequestError(f"metadata.sim: {exc}", provider="sim", model=model) from exc


def priced_model(model: str, config: SimConfig) -> str | None:
    """The real model a `sim/...` call is priced as: `price_as`, else the model's own name after
    "sim/" (`sim/gpt-4o-mini`), None for `sim/default` (free)."""
    if config.price_as:
        return config.price_as
    name = model.split("/", 1)[1] if "/" in model else model
    return None if name in ("", "default") else name


__all__ = ["FAULT_KINDS", "ORACLES", "SimConfig", "priced_model"]
