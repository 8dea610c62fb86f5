"""Span rows of the trace store and how two updates of one span combine.

The database applies span rows with an upsert (`engine.store.batch`): on conflict, parent_id,
node_id and start_ts keep the first non-null value, end_ts takes the latest non-null one, name and
status the latest non-empty one, tokens and cost add up, and attrs are JSON-merge-patched.

Invariant: `merge_span(old, new)` applies exactly those rules in Python, so upserting the merged row
stores the same span as upserting `old` then `new`. It refuses (returns False, leaving `old` as it
was) when the attrs hold a null or an object value, where merge-patching twice is not one patch.
"""

from __future__ import annotations

import math
from typing import Any

Row = dict[str, Any]


def span_row(pk: int, span_id: str, kind: str, **values: Any) -> Row:
    """A spans row; `attrs` stays a dict until the batch is written (see `RowCollector.spans`)."""
    row: Row = {
        "run_pk": pk, "span_id": span_id, "parent_id": None, "kind": kind, "name": "", "node_id": None,
        "start_ts": None, "end_ts": None, "status": "", "tokens_in": 0, "tokens_out": 0, "cost_usd": 0.0,
        "attrs": {},
    }
    row.update(values)
    return row


def _flat(attrs: dict[str, Any]) -> bool:
    return not any(value is None or isinstance(value, dict) for value in attrs.values())


def attrs_encodable(attrs: dict[str, Any]) -> bool:
    """Whether JSON surely holds `attrs` without trying (ints, strings, finite floats); else encode to know."""
    for value in attrs.values():
        kind = type(value)
        if kind is int or kind is str or (kind is float and math.isfinite(value)):
            continue
        return False
    return True


def merge_span(old: Row, new: Row) -> bool:
    """Fold `new` into `old` (same span) with the upsert's rules; False if they cannot be folded."""
    if not (_flat(old["attrs"]) and _flat(new["attrs"])):
        return False
    if old["parent_id"] is None:
        old["parent_id"] = new["parent_id"]
    if new["name"] != "" and new["name"] is not None:
        old["name"] = new["name"]
    if old["node_id"] is None:
        old["node_id"] = new["node_id"]
    if old["start_ts"] is None:
        old["start_ts"] = new["start_ts"]
    if new["end_ts"] is not None:
        old["end_ts"] = new["end_ts"]
    if new["status"] != "" and new["status"] is not None:
        old["status"] = new["status"]
    old["tokens_in"] += new["tokens_in"]
    old["tokens_out"] += new["tokens_out"]
    old["cost_usd"] += new["cost_usd"]
    old["attrs"] = {**old["attrs"], **new["attrs"]}
    return True
