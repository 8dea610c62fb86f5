"""What a verdict judged, what that artifact was the round before, and which verdict let a memory write in.

Read-only questions over a `RunProjection` for the verdicts and memory views (Qt-free):
- `judged_artifact(p, v)`: the `NodeOutput` a verdict points at (`artifact_seq`), or None;
- `previous_artifact(p, v)`: the artifact of the round before — the artifact of the latest earlier
  verdict on the same subject that judged a different output, else the subject's latest earlier
  output on the same port; None in the first round;
- `gate_verdict_of(p, write)`: the verdict a gated memory write's reason names (its decision and
  score, as `engine.memory.gating.admit` words it), the latest such before the write; None when the
  write was not gated or no verdict matches;
- `previous_write(p, write)`: the key's latest admitted write before `write` (what it replaced);
- `artifact_text(value)`: an artifact as text to show and diff (strings as they are, anything else as
  indented JSON with its keys in order, so two rounds diff line by line).

Invariant: nothing here changes the projection; every answer only looks at events before the one asked
about (a verdict never "sees" a later round).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator
from typing import Any

from engine import events as ev
from engine.projection.run_projection import RunProjection

_GATE_REASON = re.compile(r"^gate (?:approved|verdict was (?P<decision>approve|revise|reject)) \(score (?P<score>[-\d.]+)\)")


def judged_artifact(p: RunProjection, verdict: ev.VerdictIssued) -> ev.NodeOutput | None:
    return None if verdict.artifact_seq is None else p.artifacts.get(verdict.artifact_seq)


def _verdicts_before(p: RunProjection, seq: int) -> Iterator[ev.VerdictIssued]:
    """The verdicts issued before event `seq`, latest first (the list is in seq order: bisected)."""
    verdicts = p.verdicts
    return (verdicts[i] for i in range(bisect_left(verdicts, seq, key=lambda v: v.seq) - 1, -1, -1))


def previous_artifact(p: RunProjection, verdict: ev.VerdictIssued) -> ev.NodeOutput | None:
    current = judged_artifact(p, verdict)
    for earlier in _verdicts_before(p, verdict.seq):
        if earlier.subject_node_id != verdict.subject_node_id:
            continue
        if earlier.artifact_seq is None or earlier.artifact_seq == verdict.artifact_seq:
            continue
        found = p.artifacts.get(earlier.artifact_seq)
        if found is not None and (current is None or found.seq < current.seq):
            return found
    if current is None:
        return None
    best: ev.NodeOutput | None = None
    for seq, output in p.artifacts.items():
        same_port = output.node_id == current.node_id and output.port == current.port
        if same_port and seq < current.seq and (best is None or seq > best.seq):
            best = output
    return best


def gate_verdict_of(p: RunProjection, write: ev.MemoryWritten) -> ev.VerdictIssued | None:
    match = _GATE_REASON.match(write.reason or "")
    if match is None:
        return None
    decision = match.group("decision") or "approve"
    score = match.group("score")
    for verdict in _verdicts_before(p, write.seq):
        if verdict.decision == decision and f"{verdict.score:.2f}" == score:
            return verdict
    return None


def previous_write(p: RunProjection, write: ev.MemoryWritten) -> ev.MemoryWritten | None:
    """The latest admitted write to the same key before `write`: the value it replaced (or, refused,
    would have replaced); None when the run wrote none before it."""
    writes = p.memory_writes
    key = (write.memory, write.scope, write.key)
    for i in range(bisect_left(writes, write.seq, key=lambda w: w.seq) - 1, -1, -1):
        earlier = writes[i]
        if earlier.admitted and (earlier.memory, earlier.scope, earlier.key) == key:
            return earlier
    return None


def artifact_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)
