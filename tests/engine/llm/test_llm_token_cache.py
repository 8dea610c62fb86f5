"""The tokenizer cache gives the same tokens as tiktoken's own tables, and a broken or unwritable cache
only means the slow path."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.llm import token_cache
from engine.llm.tokens import _use_bundled_bpe_files

TEXT = "Plant a tree 🌳 — naïve café, 12,345 tokens? <|endoftext|>"


@pytest.fixture(autouse=True)
def _bundled_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _use_bundled_bpe_files()
    monkeypatch.setenv("TRIADIC_CACHE_DIR", str(tmp_path / "cache"))


def _tokens(encoding: object) -> list[int]:
    return encoding.encode(TEXT, disallowed_special=())  # type: ignore[attr-defined,no-any-return]


def test_the_first_load_fills_the_cache_and_the_next_reads_the_same_table(tmp_path: Path) -> None:
    first = token_cache.load_encoding("cl100k_base")
    (cached,) = (tmp_path / "cache" / "tokenizers").iterdir()
    assert cached.name.startswith("cl100k_base-tiktoken")
    again = token_cache.load_encoding("cl100k_base")
    assert again is not first and _tokens(again) == _tokens(first)
    assert again.n_vocab == first.n_vocab and again.special_tokens_set == first.special_tokens_set


def test_a_corrupt_cache_is_ignored_and_rewritten(tmp_path: Path) -> None:
    expected = _tokens(token_cache.load_encoding("cl100k_base"))
    (cached,) = (tmp_path / "cache" / "tokenizers").iterdir()
    cached.write_bytes(b"not a table")
    assert _tokens(token_cache.load_encoding("cl100k_base")) == expected
    assert _tokens(token_cache.load_encoding("cl100k_base")) == expected  # from the rewritten cache


def test_an_unwritable_cache_folder_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("TRIADIC_CACHE_DIR", str(blocker))
    assert _tokens(token_cache.load_encoding("cl100k_base"))
