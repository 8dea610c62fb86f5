"""Deltas between two runs (B − A), as `triadic diff` and the Compare dock write them: a cost that differs
only in a float's last bits is "±0", never "-0.0000"; a small cost delta keeps three significant figures;
signs are shown, zero durations and tokens are "±0"."""

from __future__ import annotations

from engine.compare.delta_text import signed, signed_cost


def test_a_delta_that_rounds_to_nothing_is_plus_minus_zero() -> None:
    assert signed_cost(-1e-12, suffix=" USD") == "±0 USD" and signed_cost(0.0, prefix="$") == "±$0"
    assert signed(0) == "±0" and signed(-0.0004, 3, suffix=" s") == "±0.000 s"


def test_small_and_large_deltas_keep_their_figures_and_signs() -> None:
    assert signed_cost(-0.00035, prefix="$") == "−$0.000350" and signed_cost(0.0123) == "+0.0123"
    assert signed_cost(12.345) == "+12.35" and signed(12345) == "+12,345" and signed(-2.0, 2) == "−2.00"
