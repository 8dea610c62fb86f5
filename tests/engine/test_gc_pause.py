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


def test_objects_set_aside_while_runs_go_on_come_back_when_the_last_ends() -> None:
    from engine.gc_pause import older_objects_set_aside

    before = [[]]  # a container that exists before the runs start
    assert gc.get_freeze_count() == 0
    with older_objects_set_aside():
        held = gc.get_freeze_count()
        assert held > 0 and gc.isenabled()  # set aside, and collection is still on
        with older_objects_set_aside():  # an overlapping run shares it
            assert gc.get_freeze_count() == held
        assert gc.get_freeze_count() == held  # the first run still goes on
        cycle: list[object] = []
        cycle.append(cycle)  # garbage made during a run is still collected
        del cycle
        assert gc.collect() >= 1
    assert gc.get_freeze_count() == 0 and before
    with pytest.raises(ValueError), older_objects_set_aside():
        raise ValueError("a run that fails")
    assert gc.get_freeze_count() == 0
