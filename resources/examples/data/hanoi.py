"""Tower of Hanoi move-list checker for the decompose-and-vote example.

Moves are "from to" pairs of pegs (1-3 or A-C): one per line ("1 3", "1->3", "A to C", "move disk 1
from 1 to 3"; blank lines and lines starting with "#" — comments, Markdown headings such as a vote
node's "## m1: ..." — are skipped), or a JSON list of pairs ([[1, 3], [1, 2], ...]). Disks start
on peg 1, largest at the bottom; the puzzle is solved when all are on peg 3. Every move must take
the top disk of a non-empty peg and never put a larger disk on a smaller one.

Use as a `command` check: `python hanoi.py --disks 3` (reads $SUBJECT, or stdin; prints the verdict as
JSON; exit 0 only when solved). Use as a `python` check (workdir = this folder):
`__import__("hanoi").verdict(subject, 3)`. Standard library only: it runs in the sandbox.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

_PEG = {"1": 0, "2": 1, "3": 2, "a": 0, "b": 1, "c": 2}
_LINE = re.compile(r"^\s*(?:move\s+)?(?:disk\s+\d+\s+)?(?:from\s+)?([123abc])\s*(?:->|to|,|\s)\s*([123abc])\s*$",
                   re.IGNORECASE)


def parse_moves(text: str) -> list[tuple[int, int]]:
    """Moves as (from, to) peg indexes 0..2; raises ValueError naming the bad line."""
    stripped = text.strip()
    if stripped.startswith("["):
        pairs = json.loads(stripped)
        return [(_PEG[str(a).lower()], _PEG[str(b).lower()]) for a, b in pairs]
    moves = []
    for number, line in enumerate(stripped.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            raise ValueError(f"line {number}: cannot read a move from {line.strip()!r}")
        moves.append((_PEG[match.group(1).lower()], _PEG[match.group(2).lower()]))
    return moves


def verdict(subject: Any, disks: int = 3) -> dict[str, Any]:
    """A verdict dict: approve when solved; score = share of the optimal 2^n - 1 moves made validly."""
    optimal = 2**disks - 1
    try:
        moves = parse_moves(subject if isinstance(subject, str) else json.dumps(subject))
    except (ValueError, KeyError, TypeError) as exc:
        return {"decision": "revise", "score": 0.0, "reasons": [f"unreadable move list: {exc}"]}
    pegs: list[list[int]] = [list(range(disks, 0, -1)), [], []]
    for index, (source, target) in enumerate(moves, 1):
        if not pegs[source]:
            return {"decision": "revise", "score": min(1.0, (index - 1) / optimal),
                    "reasons": [f"move {index}: peg {source + 1} is empty"]}
        disk = pegs[source][-1]
        if pegs[target] and pegs[target][-1] < disk:
            return {"decision": "revise", "score": min(1.0, (index - 1) / optimal),
                    "reasons": [f"move {index}: disk {disk} cannot go on smaller disk {pegs[target][-1]}"]}
        pegs[target].append(pegs[source].pop())
    if len(pegs[2]) != disks:
        return {"decision": "revise", "score": min(0.99, len(moves) / optimal),
                "reasons": [f"all {len(moves)} moves are valid but the puzzle is not solved: pegs are {pegs}"]}
    note = "optimal" if len(moves) == optimal else f"optimal is {optimal}"
    return {"decision": "approve", "score": 1.0,
            "reasons": [f"solved {disks} disks in {len(moves)} moves ({note})"]}


def main(argv: list[str]) -> int:
    disks = int(argv[argv.index("--disks") + 1]) if "--disks" in argv else 3
    path = os.environ.get("SUBJECT")
    if path:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    else:
        text = sys.stdin.read()
    result = verdict(text, disks)
    print(json.dumps(result))
    return 0 if result["decision"] == "approve" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
