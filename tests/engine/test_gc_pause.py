"""`gc_paused` turns the cycle collector off for a block and back on after it (also on errors), and
leaves it off when it was off before."""

from __future__ import annotations

import gc

import pytest

from engine.gc_pause import gc_paused


def test_collection_is_off_inside_and_restored_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner block does not turn it on early
    assert gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()
