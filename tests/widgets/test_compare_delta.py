"""The Compare dock's header and node tooltips write B − A with `engine.compare.delta_text`: an equal cost
is "±$0", never "-0.0000 $"."""

from __future__ import annotations

from engine.compare import NodeDelta
from widgets.compare.compare_panel import delta_text


def test_the_compare_dock_s_delta_line() -> None:
    assert delta_text(NodeDelta("run", 0, -1e-12, -0.001)) == "±0 tokens, ±$0, ±0.00 s"
    assert delta_text(NodeDelta("n", -120, -0.00035, 1.254)) == "−120 tokens, −$0.000350, +1.25 s"
    assert delta_text(NodeDelta("n", 5, 0.0123, None)) == "+5 tokens, +$0.0123"
