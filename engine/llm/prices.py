"""Model prices outside litellm's `completion_cost`: the user's price table and the bundled price map.

`PriceTable` holds per-model USD per input / output token, the fallback for models litellm does not
price (local servers, fine-tunes, new models). It loads from `prices.json` in the user config dir
(platformdirs) shaped `{"my-model": {"input_cost_per_token": 1e-7, "output_cost_per_token": 2e-7}}`.
`bundled_price()` reads litellm's bundled price file directly, without importing litellm, so the
zero-overhead `SimGateway` prices "as" a real model exactly like the litellm path does.

Invariant: a bad price file raises ValueError naming the file and the entry; nothing is guessed.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

PRICE_FILE_NAME = "prices.json"


@dataclass(frozen=True, slots=True)
class ModelPrice:
    input_per_token: float
    output_per_token: float

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        return tokens_in * self.input_per_token + tokens_out * self.output_per_token


@dataclass(slots=True)
class PriceTable:
    """User prices per model id; a lookup tries the id as given, then without its provider prefix."""

    prices: dict[str, ModelPrice] = field(default_factory=dict)

    def set(self, model: str, input_per_token: float, output_per_token: float) -> None:
        self.prices[model] = ModelPrice(float(input_per_token), float(output_per_token))

    def get(self, model: str) -> ModelPrice | None:
        return self.prices.get(model) or self.prices.get(model.split("/", 1)[-1])

    def cost(self, model: str, tokens_in: int, tokens_out: int) -> float | None:
        price = self.get(model)
        return None if price is None else price.cost(tokens_in, tokens_out)

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "price table") -> PriceTable:
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected an object of model -> prices, got {type(data).__name__}")
        table = cls()
        for model, entry in data.items():
            try:
                table.set(str(model), float(entry["input_cost_per_token"]), float(entry["output_cost_per_token"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(
                    f"{source}: entry {model!r} needs numeric input_cost_per_token and "
                    f"output_cost_per_token ({type(exc).__name__}: {exc})"
                ) from exc
        return table

    @classmethod
    def load(cls, path: Path) -> PriceTable:
        """The table in `path`; an empty table when the file does not exist."""
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
        return cls.from_dict(data, source=str(path))

    @classmethod
    def load_user(cls) -> PriceTable:
        """The table in the user config dir (`<config>/triadic/prices.json`), empty when absent."""
        return cls.load(user_price_file())


def user_price_file() -> Path:
    return Path(platformdirs.user_config_dir("triadic")) / PRICE_FILE_NAME


@functools.cache
def _bundled_prices() -> dict[str, Any]:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "model_prices_and_context_window_backup.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def bundled_price(model: str) -> ModelPrice | None:
    """litellm's bundled per-token price of `model` (as given or without provider prefix), or None."""
    prices = _bundled_prices()
    entry = prices.get(model) or prices.get(model.split("/", 1)[-1])
    if not isinstance(entry, dict):
        return None
    try:
        return ModelPrice(float(entry["input_cost_per_token"]), float(entry["output_cost_per_token"]))
    except (KeyError, TypeError, ValueError):
        return None


__all__ = ["PRICE_FILE_NAME", "ModelPrice", "PriceTable", "bundled_price", "user_price_file"]
