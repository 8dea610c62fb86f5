"""The simulated model: one deterministic function from a call to its reply (or injected fault).

`simulate()` picks the writer from `metadata["role"]` (planner, executor, critic, router, vote, map,
reduce, ...) and `metadata["output"]` ("sql" / "python") — or the `oracle` set in the config answers
(`oracles`) — seeds a `random.Random` from
(seed, messages, metadata) and counts tokens with the real tokenizer. Faults are drawn from the
same seed plus the attempt number (so a retry can succeed); `fail_first` fails attempts 1..N of
every call. A "malformed" fault never hits a call marked `repair` (the runtime's repair round).

Invariant: same (seed, messages, metadata) -> same content and token counts, on every path
(the litellm custom provider and `SimGateway` both call this).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass
from typing import Any

from engine.llm.sim import writers
from engine.llm.sim.config import SimConfig, priced_model
from engine.llm.sim.oracles import oracle_reply
from engine.llm.sim.toolcalls import make_tool_call, tool_results, wants_tool_call, with_tool_results
from engine.llm.tokens import count_messages, count_text

# Metadata keys that steer the transport, not the content.
_TRANSPORT_KEYS = frozenset({"sim", "attempt"})


@dataclass(frozen=True, slots=True)
class SimReply:
    content: str
    tokens_in: int
    tokens_out: int
    price_model: str | None
    fault: str | None = None  # "rate_limit" | "server_error" | "timeout": the attempt fails
    tool_calls: tuple[dict[str, Any], ...] = ()  # OpenAI-format calls (content is then empty)

    def chunks(self, words: int) -> list[str]:
        """The content split into streamed deltas of `words` words (whitespace kept); none if empty.
        Each delta starts with the whitespace before its first word, as real providers stream tokens
        (" world", not "world "): counted delta by delta, the tokens then add up to about the reply's
        count (trailing spaces counted alone made 1-word deltas count ~1.8x the reply's tokens)."""
        if not self.content:
            return []
        pieces = re.findall(r"\s*\S+", self.content) or [self.content]
        chunks = ["".join(pieces[i:i + words]) for i in range(0, len(pieces), words)]
        tail = self.content[len("".join(pieces)):]  # whitespace after the last word
        if tail:
            chunks[-1] += tail
        return chunks


def _prompt_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    return " ".join(str(m.get("content") or "") for m in messages)


def _seeded(seed: int | None, messages: list[dict[str, Any]], meta: dict[str, Any], salt: str = "") -> random.Random:
    blob = json.dumps([seed, messages, meta, salt], sort_keys=True, default=str)
    return random.Random(int.from_bytes(hashlib.sha256(blob.encode()).digest()[:8], "big"))


def _content(role: str, rng: random.Random, prompt: str, meta: dict[str, Any], config: SimConfig) -> str:
    answer = oracle_reply(config, role, rng, prompt, meta)  # an example's oracle, when set, answers first
    if answer is not None:
        return answer
    output = str(meta.get("output") or "")
    if output == "sql":
        return writers.write_sql(rng, prompt, meta)
    if output == "python":
        return writers.write_python(rng, prompt, meta)
    if role in ("planner", "replanner"):
        return writers.write_plan(rng, prompt, meta)
    if role in ("critic", "reviewer", "judge"):
        return writers.write_verdict(rng, prompt, meta, config.revise_rate, config.reject_rate)
    if role in ("router", "classifier"):
        return writers.write_route(rng, meta)
    if role == "vote":
        return writers.write_vote(rng, prompt, meta)
    if role in ("executor", "map", "reduce", "worker"):
        return writers.write_result(rng, prompt, meta)
    return writers.write_reply(rng, prompt)


def _fault(seed: int | None, messages: list[dict[str, Any]], meta: dict[str, Any], attempt: int,
           config: SimConfig) -> str | None:
    if attempt <= config.fail_first:
        return config.fail_kind
    if config.fault_rate > 0 and config.faults:
        rng = _seeded(seed, messages, meta, salt=f"fault:{attempt}")
        if rng.random() < config.fault_rate:
            return rng.choice(config.faults)
    return None


def simulate(model: str, messages: list[dict[str, Any]], metadata: dict[str, Any], seed: int | None,
             config: SimConfig, tools: list[dict[str, Any]] | None = None) -> SimReply:
    """The reply of `sim/<name>` to one attempt; `metadata["attempt"]` (1-based) drives faults;
    `tools` (OpenAI format) are the tools offered (see `toolcalls`)."""
    meta = {k: v for k, v in metadata.items() if k not in _TRANSPORT_KEYS}
    if seed is None and meta.get("seed") is not None:
        seed = int(meta["seed"])
    attempt = int(metadata.get("attempt") or 1)
    price_model = priced_model(model, config)
    token_model = price_model or model
    tokens_in = count_messages(messages, token_model)
    fault = _fault(seed, messages, meta, attempt, config)
    if fault not in (None, "malformed"):
        return SimReply("", tokens_in, 0, price_model, fault)
    prompt = _prompt_text(messages)
    rng = _seeded(seed, messages, meta)
    if tools and wants_tool_call(tools, messages, config):
        call = make_tool_call(rng, tools, prompt, config, model)
        return SimReply("", tokens_in, count_text(json.dumps(call["function"]), token_model), price_model,
                        tool_calls=(call,))
    content = with_tool_results(_content(str(meta.get("role") or ""), rng, prompt, meta, config),
                                tool_results(messages))
    if fault == "malformed" and not meta.get("repair"):  # a repair round gets a clean answer
        content = content[: max(1, len(content) // 2)] + " <<output cut off"
    return SimReply(content, tokens_in, count_text(content, token_model), price_model)


__all__ = ["SimReply", "simulate"]
