"""Token counting with the real tokenizer (tiktoken), fully offline, without importing litellm.

Uses the BPE files litellm bundles (`litellm/litellm_core_utils/tokenizers`), so nothing is ever
downloaded. Counts match `litellm.token_counter` for OpenAI-style models: o200k_base for gpt-4o /
newer OpenAI models, cl100k_base otherwise; a chat prompt costs 3 tokens per message plus the text of
each string field (+1 for a name) plus 3 for the reply primer.

Invariant: deterministic; the simulated provider and `SimGateway` both count through here.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tiktoken


def _use_bundled_bpe_files() -> None:
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    spec = importlib.util.find_spec("litellm")
    if spec is not None and spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        os.environ["TIKTOKEN_CACHE_DIR"] = str(root / "litellm_core_utils" / "tokenizers")


def encoding_name(model: str) -> str:
    name = model.split("/", 1)[-1]
    if "gpt-4o" in name:
        return "o200k_base"
    try:
        return tiktoken.encoding_name_for_model(name)
    except KeyError:
        return "cl100k_base"


@functools.cache
def _encoding(name: str) -> tiktoken.Encoding:
    from engine.llm.token_cache import load_encoding

    _use_bundled_bpe_files()
    return load_encoding(name)


@functools.lru_cache(maxsize=256)
def _encoding_for(model: str) -> tiktoken.Encoding:
    return _encoding(encoding_name(model))


def count_text(text: str, model: str = "") -> int:
    """Tokens of `text` under `model`'s tokenizer."""
    if not text:
        return 0
    return len(_encoding_for(model).encode(text, disallowed_special=()))


def count_messages(messages: Sequence[dict[str, Any]], model: str = "") -> int:
    """Prompt tokens of a chat `messages` list, as an OpenAI chat model would bill them."""
    if not messages:
        return 0
    total = 3
    for message in messages:
        total += 3
        for key, value in message.items():
            if isinstance(value, str):
                total += count_text(value, model) + (1 if key == "name" else 0)
            elif key == "content" and isinstance(value, list):
                total += sum(count_text(str(part.get("text", "")), model) for part in value if isinstance(part, dict))
    return total


__all__ = ["count_messages", "count_text", "encoding_name"]
