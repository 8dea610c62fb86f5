"""Usage of a run over time and by model: what the cost & tokens views plot and tabulate.

Invariant: `points` grows by one sample per finished model call that used tokens or cost, in seq
order; each sample holds the run's cumulative tokens and cost at that moment, so a plot of it never
goes down. A model whose calls were not priced by the gateway keeps `unpriced_calls` > 0: its cost
is unknown, which a view must say rather than show $0.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ModelUsage:
    model: str
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out


@dataclass(slots=True)
class UsageSeries:
    ts: list[float] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)  # cumulative, in + out
    cost_usd: list[float] = field(default_factory=list)  # cumulative
    by_model: dict[str, ModelUsage] = field(default_factory=dict)

    def add(self, ts: float, model: str, tokens_in: int, tokens_out: int, cost: float, priced: bool) -> None:
        usage = self.by_model.get(model)
        if usage is None:
            usage = self.by_model[model] = ModelUsage(model)
        usage.calls += 1
        usage.tokens_in += tokens_in
        usage.tokens_out += tokens_out
        usage.cost_usd += cost
        if not priced:
            usage.unpriced_calls += 1
        if tokens_in or tokens_out or cost:
            self.ts.append(ts)
            self.tokens.append((self.tokens[-1] if self.tokens else 0) + tokens_in + tokens_out)
            self.cost_usd.append((self.cost_usd[-1] if self.cost_usd else 0.0) + cost)
