"""How a delta between two runs (B − A) is written, by `triadic diff` and the Compare dock alike.

`signed(value, places)`: "+1,234", "−0.25"; a delta that rounds to nothing is "±0" with its places —
never "-0.00", which the last bits of two equal float sums make. `signed_cost(usd)`: three significant
figures below $1 (at least four places), cents above, "±0" for a cost the same to a millionth of a cent.
"""

from __future__ import annotations

import math


def signed(value: float, places: int = 0, *, prefix: str = "", suffix: str = "") -> str:
    text = f"{abs(value):,.{places}f}"
    if float(text.replace(",", "")) == 0:
        return f"±{prefix}{text}{suffix}"
    return f"{'−' if value < 0 else '+'}{prefix}{text}{suffix}"


def signed_cost(usd: float, *, prefix: str = "", suffix: str = "") -> str:
    cost = abs(usd)
    if round(cost, 8) == 0:
        return f"±{prefix}0{suffix}"
    places = 2 if cost >= 1 else max(4, 2 - math.floor(math.log10(cost)))
    return signed(usd, places, prefix=prefix, suffix=suffix)
