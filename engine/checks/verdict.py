"""The verdict of a check: the same shape a critic returns (`events.VerdictIssued` carries it).

Invariants: `decision` is one of approve / revise / reject; `score` is clamped to 0..1; reasons and
claims are plain JSON-able data, so a verdict can go straight into an event. A `broken` verdict (a
reject) says the check itself is at fault — its expression, schema or command — not the subject.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.events import Decision

DECISIONS: tuple[Decision, ...] = ("approve", "revise", "reject")


@dataclass(frozen=True, slots=True)
class Verdict:
    decision: Decision
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    # the check itself cannot judge (its expression is wrong, its command is missing): no revision of
    # the subject can change that, so a verifier fails at once instead of asking for one
    broken: bool = False

    def __post_init__(self) -> None:
        if self.decision not in DECISIONS:
            raise ValueError(f"verdict decision must be one of {DECISIONS}, got {self.decision!r}")
        object.__setattr__(self, "score", min(1.0, max(0.0, float(self.score))))

    @property
    def approved(self) -> bool:
        return self.decision == "approve"

    def to_record(self) -> dict[str, Any]:
        return {"decision": self.decision, "score": self.score, "reasons": list(self.reasons),
                "claims": [dict(c) for c in self.claims]}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Verdict:
        """Build a verdict from a dict such as a check script prints; bad shapes raise ValueError."""
        decision = record.get("decision")
        if decision not in DECISIONS:
            raise ValueError(f"'decision' must be one of {DECISIONS}, got {decision!r}")
        reasons = record.get("reasons", [])
        claims = record.get("claims", [])
        if not isinstance(reasons, list) or not isinstance(claims, list):
            raise ValueError("'reasons' and 'claims' must be lists")
        try:
            score = float(record.get("score", 1.0 if decision == "approve" else 0.0))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"'score' must be a number, got {record.get('score')!r}") from exc
        return cls(decision, score, [str(r) for r in reasons],
                   [c if isinstance(c, dict) else {"claim": str(c)} for c in claims])


def approve(*reasons: str, score: float = 1.0) -> Verdict:
    return Verdict("approve", score, list(reasons))


def revise(*reasons: str, score: float = 0.0) -> Verdict:
    return Verdict("revise", score, list(reasons))


def reject(*reasons: str, score: float = 0.0) -> Verdict:
    return Verdict("reject", score, list(reasons))


def broken(*reasons: str) -> Verdict:
    """The check could not judge the subject at all (a reject that is the workflow's fault)."""
    return Verdict("reject", 0.0, list(reasons), broken=True)
