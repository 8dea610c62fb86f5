"""The run budget: one type for the limits a workflow's run settings set, which the file stores, the plan
freezes, the runtime holds a run (and each sub-graph) to, `RunStarted` records and the Cost dock shows.

`Budget`'s fields are the file's names (``settings.budget``); `LIMITS` lists each limit once — its
field, the `BudgetKind` a `BudgetExceeded` event names when it is crossed, and its unit. 0 means no
limit. A node's own limits are its parameters (`max_tokens_budget`, `max_cost_usd`, `deadline_s`,
`max_calls_budget`: `engine.runtime.nodesetup.CallSettings`), reported with the same kinds.

Invariants: a `Budget` never changes (a new one replaces it: `dataclasses.replace`); `from_record`
reads every record this or an earlier version wrote (format version 2 and runs stored before it
called `max_model_calls` `max_turns`). Runs stored before format version 3 also name a model-call stop
`max_turns` (in `BudgetExceeded.budget`, counted in "turns" in the run's reason): `kind_now` and
`reason_now` say them in today's words wherever they are shown; the stored events are never rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

BudgetKind = Literal["tokens", "cost_usd", "deadline_s", "model_calls"]


@dataclass(frozen=True, slots=True)
class Limit:
    field: str  # the `Budget` field and the key in the file and in `RunStarted.settings["budget"]`
    kind: BudgetKind  # what `BudgetExceeded.budget` says when it is crossed
    unit: str
    whole: bool  # a whole number (int), else a float


LIMITS: tuple[Limit, ...] = (
    Limit("max_tokens", "tokens", "tokens", whole=True),
    Limit("max_cost_usd", "cost_usd", "USD", whole=False),
    Limit("deadline_s", "deadline_s", "s", whole=False),
    Limit("max_model_calls", "model_calls", "calls", whole=True),
)
UNITS: dict[str, str] = {limit.kind: limit.unit for limit in LIMITS}
_OLD_FIELDS = {"max_turns": "max_model_calls"}  # what records before format version 3 called a field
_OLD_KINDS = {"max_turns": "model_calls"}  # what `BudgetExceeded` said before format version 3
# the old stop in a run's reason: "run max_turns budget exceeded at node a: 5 turns > limit 4 turns"
_OLD_STOP = re.compile(r"\bmax_turns budget exceeded([^:]*): (\S+) turns > limit (\S+) turns")


def kind_now(kind: str) -> str:
    """The kind a `BudgetExceeded` names, in today's words (`max_turns` of older runs: `model_calls`)."""
    return _OLD_KINDS.get(kind, kind)


def reason_now(reason: str) -> str:
    """A run's reason with an older run's model-call stop in today's words; anything else as it is."""
    if "max_turns" not in reason:
        return reason
    return _OLD_STOP.sub(r"model_calls budget exceeded\1: \2 calls > limit \3 calls", reason)


@dataclass(frozen=True, slots=True)
class Budget:
    """Run-wide limits; 0 means no limit."""

    max_tokens: int = 0
    max_cost_usd: float = 0.0
    deadline_s: float = 0.0
    max_model_calls: int = 0

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Budget:
        """The budget a file's ``settings.budget`` or a run's recorded settings hold (missing: 0)."""
        given = {_OLD_FIELDS.get(k, k): v for k, v in record.items()}
        return cls(int(given.get("max_tokens", 0)), float(given.get("max_cost_usd", 0.0)),
                   float(given.get("deadline_s", 0.0)), int(given.get("max_model_calls", 0)))

    def to_record(self) -> dict[str, float]:
        """Every limit by its field name: what the file and `RunStarted` store."""
        return {limit.field: getattr(self, limit.field) for limit in LIMITS}

    def set_limits(self) -> dict[BudgetKind, float]:
        """The limits that are set (not 0), by the kind a budget stop names: what the Cost dock gauges."""
        return {limit.kind: float(value) for limit in LIMITS if (value := getattr(self, limit.field))}

    @property
    def counted(self) -> bool:
        """Whether a limit is set that calls are counted against (tokens, cost, model calls)."""
        return bool(self.max_tokens or self.max_cost_usd or self.max_model_calls)

    @property
    def any(self) -> bool:
        """Whether any limit is set (a deadline too)."""
        return self.counted or bool(self.deadline_s)
