"""Fixtures of the replay tests: a fresh trace store in a temp dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.store import TraceStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TraceStore]:
    with TraceStore(tmp_path / "trace.db") as opened:
        yield opened
