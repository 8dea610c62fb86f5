"""The Compare dock's deltas (B − A): a cost that differs only in a float's last bits is "±$0", never
"-0.0000 $"; a small cost delta keeps its figures; signs are shown, zero durations and tokens are "±0"."""

from __future__ import annotations

from engine.compare import NodeDelta
from widgets.compare.compare_panel import delta_text


def test_a_delta_that_rounds_to_nothing_is_plus_minus_zero() -> None:
    assert delta_text(NodeDelta("run", 0, -1e-12, -0.001)) == "±0 tokens, ±$0, ±0.00 s"
    assert delta_text(NodeDelta("run", 0, 0.0, None)) == "±0 tokens, ±$0"


def test_small_and_large_deltas_keep_their_figures_and_signs() -> None:
    assert delta_text(NodeDelta("n", -120, -0.00035, 1.254)) == "−120 tokens, −$0.000350, +1.25 s"
    assert delta_text(NodeDelta("n", 5, 0.0123, -2.0)) == "+5 tokens, +$0.0123, −2.00 s"
