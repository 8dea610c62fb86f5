"""Fixtures of the bundle tests: a source store with one recorded triad run, and a second store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.store import TraceStore
from tests.engine.replay.replay_helpers import record


@pytest.fixture
def source(tmp_path: Path) -> Iterator[tuple[TraceStore, str]]:
    with TraceStore(tmp_path / "source.db") as store:
        result = asyncio.run(record(store, "triad"))
        yield store, result.run_id


@pytest.fixture
def target(tmp_path: Path) -> Iterator[TraceStore]:
    with TraceStore(tmp_path / "target.db") as store:
        yield store
