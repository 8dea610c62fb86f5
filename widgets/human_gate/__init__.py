"""The Human gate dock: answer a live run's human gates (approve, reject with a reason, edit the artifact).

Public API: `HumanGatePanel` (a `RunPanel`; signals `decision_requested(node_id, decision, edited,
reason)` and `attention_requested(message)`; `set_read_only(reason | None)`).
"""

from widgets.human_gate.panel import HumanGatePanel

__all__ = ["HumanGatePanel"]
