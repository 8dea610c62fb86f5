"""Gated memory writes: a write is admitted only when the gate verdict approves.

`admit(gate_verdict, gated)` returns (admitted, reason); the reason goes into the MemoryWritten
event and the memory panel, so a rejected write always says why.
"""

from __future__ import annotations

from engine.checks.verdict import Verdict


def admit(gate_verdict: Verdict | None, gated: bool) -> tuple[bool, str]:
    if not gated:
        return True, "not gated"
    if gate_verdict is None:
        return False, "gated write without a gate verdict: connect a critic or verifier to the gate port"
    if gate_verdict.decision == "approve":
        return True, f"gate approved (score {gate_verdict.score:.2f})"
    why = "; ".join(gate_verdict.reasons[:3]) or "no reason given"
    return False, f"gate verdict was {gate_verdict.decision} (score {gate_verdict.score:.2f}): {why}"
