"""`gc_paused` turns the cycle collector off for a block and back on after it (also on errors), and
leaves it off when it was off before, also when blocks on two threads overlap."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from engine.gc_pause import gc_paused, older_objects_set_aside, on_set_aside_end


@pytest.fixture(autouse=True)
def _automatic_collection() -> Iterator[None]:
    """These tests are about a process whose automatic collector is on (the engine headless); the test
    session runs with it off (tests/conftest.py): turn it on here and back off after. What an earlier
    test's window set aside (`gc.freeze`) goes back under collection first: these tests count it."""
    was = gc.isenabled()
    gc.unfreeze()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


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


def test_overlapping_blocks_on_two_threads_turn_collection_back_on_once_both_end() -> None:
    """A file read on a worker (its block ends first) while the GUI thread builds a scene."""
    inside, leave = threading.Event(), threading.Event()

    def worker() -> None:
        with gc_paused():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=worker)
    thread.start()
    inside.wait(5)
    with gc_paused():  # began while the worker's block was on: collection was already off
        leave.set()
        thread.join(5)
        assert not gc.isenabled()  # the worker's block ended first: this one still runs
    assert gc.isenabled()  # the last block ended: on again, as it was before the first


def test_objects_set_aside_while_runs_go_on_come_back_when_the_last_ends() -> None:
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


def test_a_process_with_a_set_aside_of_its_own_ends_the_runs_set_aside_its_own_way() -> None:
    ended: list[int] = []
    before = on_set_aside_end(lambda: ended.append(gc.get_freeze_count()))
    try:
        with older_objects_set_aside():
            assert gc.get_freeze_count() > 0
        assert len(ended) == 1 and ended[0] > 0  # its own ending ran, with the objects still set aside
        assert gc.get_freeze_count() > 0  # and nothing unfroze them
    finally:
        on_set_aside_end(before)
        gc.unfreeze()
