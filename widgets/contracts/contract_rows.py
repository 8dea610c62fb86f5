"""What the Contracts dock shows of each contract: at a run's end, or at an earlier playback moment.

`rows_at(results, moment)`: one `ContractRow` per result of the run's `ContractsChecked` (the run's
end). `moment` None: the end, as checked. A moment (the seq playback shows): a contract broken at or
before it is broken there, at the same event; any other — held at the end, or first broken by a later
event — holds *so far*: no event up to the moment breaks it, and whether it holds is known only at the
run's end, which the row says (a later violation is not given away before its event).
`summary_at(rows, moment)`: the line above the rows. Qt-free: the panel draws these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import ContractResult

HOLDS, BROKEN, SO_FAR = "holds", "broken", "so far"
AT_THE_END = "checked at the run's end"


@dataclass(frozen=True, slots=True)
class ContractRow:
    state: str  # HOLDS, BROKEN or SO_FAR
    title: str  # what it asserts, with the sub-graph whose file holds it
    seq: int | None  # the first violating event, when broken (at the moment shown)
    why: str
    result: ContractResult


def rows_at(results: Sequence[ContractResult], moment: int | None = None) -> list[ContractRow]:
    return [_row(r, moment) for r in results]


def _row(result: ContractResult, moment: int | None) -> ContractRow:
    title = f"{result.where}: {result.title}" if result.sub_graph else result.title
    broken = not result.passed and result.seq is not None
    if moment is None:
        return ContractRow(BROKEN if broken else HOLDS, title, result.seq if broken else None, result.reason, result)
    if broken and result.seq is not None and result.seq <= moment:
        return ContractRow(BROKEN, title, result.seq, result.reason, result)
    return ContractRow(SO_FAR, title, None, f"no event up to {moment} breaks it; {AT_THE_END}", result)


def summary_at(rows: Sequence[ContractRow], moment: int | None = None) -> str:
    broken = sum(r.state == BROKEN for r in rows)
    if moment is None:
        held = len(rows) - broken
        if broken:
            return f"{broken} of {len(rows)} contracts broken, {held} hold."
        return f"All {held} contracts hold."
    so_far = len(rows) - broken
    head = f"At event {moment}: "
    if broken:
        head += f"{broken} of {len(rows)} contracts broken, {so_far} hold so far"
    else:
        head += f"all {so_far} contracts hold so far"
    return f"{head} (whether they hold is {AT_THE_END})." if so_far else head + "."
