"""The "hanoi" oracle: a simulated Tower of Hanoi solver for decompose-and-vote runs.

Reads the puzzle from the prompt ("3 disks", optionally "from peg 1 to peg 3"; default 1 to 3).
- As a planner it decomposes the puzzle into one task per move of the optimal solution
  (2^n - 1 tasks), each depending on all earlier ones, so every step sees the moves voted so far.
- As a voter / executor it replays the earlier moves it is shown (lines "[id] move disk 2 from 1
  to 2") and answers the optimal next move from that position — but with probability
  `error_rate` (from the call's seeded rng, so per sample) it slips to another legal move. Single
  samples are then sometimes wrong and the majority vote corrects them.
Moves are written "move disk D from A to B", which the bundled checker (examples/data/hanoi.py) reads.

Invariant: pure functions of (role, rng state, prompt, error_rate).
"""

from __future__ import annotations

import json
import random
import re

from engine.llm.types import BadRequestError

PLAN_ROLES = frozenset({"planner", "replanner"})
MOVE_ROLES = frozenset({"vote", "executor", "worker"})
MAX_DISKS = 10
_DISKS = re.compile(r"\b(\d+)\s+disks?\b", re.IGNORECASE)
_PEGS = re.compile(r"\bfrom\s+peg\s+([123])\s+to\s+peg\s+([123])\b", re.IGNORECASE)
_EARLIER = re.compile(r"^\s*\[[^\]]*\]\s*(?:move\s+)?(?:disk\s+\d+\s+)?(?:from\s+)?([123])\s*(?:->|to|,|\s)\s*([123])\s*$",
                      re.IGNORECASE | re.MULTILINE)

Pegs = list[list[int]]


def hanoi_reply(role: str, rng: random.Random, prompt: str, error_rate: float) -> str | None:
    if role in PLAN_ROLES:
        return plan(*puzzle(prompt))
    if role in MOVE_ROLES:
        disks, source, target = puzzle(prompt)
        pegs = replay(disks, source, [(a - 1, b - 1) for a, b in earlier_moves(prompt)])
        return next_move_text(pegs, target, rng, error_rate)
    return None


def puzzle(prompt: str) -> tuple[int, int, int]:
    """(disks, source peg 0..2, target peg 0..2) named in the prompt."""
    found = _DISKS.search(prompt)
    if found is None:
        raise BadRequestError("metadata.sim: oracle 'hanoi' finds no disk count (like '3 disks') in the prompt",
                              provider="", model="sim")
    disks = int(found.group(1))
    if not 1 <= disks <= MAX_DISKS:
        raise BadRequestError(f"metadata.sim: oracle 'hanoi' solves 1 to {MAX_DISKS} disks, not {disks}",
                              provider="", model="sim")
    pegs = _PEGS.search(prompt)
    source, target = (int(pegs.group(1)) - 1, int(pegs.group(2)) - 1) if pegs else (0, 2)
    return disks, source, target if target != source else (source + 2) % 3


def plan(disks: int, source: int, target: int) -> str:
    total = 2**disks - 1
    tasks = [{"id": f"m{i}", "task": f"Move {i} of {total}: the next move for {disks} disks "
                                      f"from peg {source + 1} to peg {target + 1}",
              "depends_on": [f"m{j}" for j in range(1, i)]} for i in range(1, total + 1)]
    return json.dumps({"tasks": tasks})


def earlier_moves(prompt: str) -> list[tuple[int, int]]:
    """The moves already made, from the prompt's "[id] <move>" lines (pegs 1..3), in order."""
    return [(int(a), int(b)) for a, b in _EARLIER.findall(prompt)]


def replay(disks: int, source: int, moves: list[tuple[int, int]]) -> Pegs:
    """Pegs (bottom to top) after the legal ones of `moves`; an illegal move is skipped."""
    pegs: Pegs = [[], [], []]
    pegs[source] = list(range(disks, 0, -1))
    for a, b in moves:
        if legal(pegs, a, b):
            pegs[b].append(pegs[a].pop())
    return pegs


def legal(pegs: Pegs, a: int, b: int) -> bool:
    return a != b and bool(pegs[a]) and (not pegs[b] or pegs[b][-1] > pegs[a][-1])


def optimal_move(pegs: Pegs, target: int) -> tuple[int, int] | None:
    """The first move of the shortest solution from this position (None when solved)."""
    where = {disk: index for index, peg in enumerate(pegs) for disk in peg}
    move: tuple[int, int] | None = None
    goal = target
    for disk in range(len(where), 0, -1):  # largest first: each disk not on its goal sets the next goal
        if where[disk] != goal:
            move = (where[disk], goal)
            goal = 3 - where[disk] - goal
    return move


def next_move_text(pegs: Pegs, target: int, rng: random.Random, error_rate: float) -> str:
    best = optimal_move(pegs, target)
    if best is None:
        return "The puzzle is already solved: no move is left."
    slip = rng.random() < error_rate
    others = [(a, b) for a in range(3) for b in range(3) if (a, b) != best and legal(pegs, a, b)]
    a, b = rng.choice(others) if slip and others else best
    return f"move disk {pegs[a][-1]} from {a + 1} to {b + 1}"


__all__ = ["earlier_moves", "hanoi_reply", "legal", "next_move_text", "optimal_move", "plan", "puzzle", "replay"]
