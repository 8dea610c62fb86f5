"""What the simulated provider says in each role: plans, results, verdicts, routes, votes, code.

Each writer takes the seeded `random.Random` of the call, the prompt text and the request metadata
and returns the reply text. Structured replies are valid JSON in the shapes the runtime parses:
plan `{"tasks": [{"id", "task", "depends_on"}]}` and verdict `{"decision", "score", "reasons",
"claims"}`.

Invariant: pure functions of their arguments — same rng state, same text.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

_STEPS = (  # the goal's topic is quoted: it reads as well for a question as for an instruction
    'Gather background for "{t}"', 'List the requirements of "{t}"', 'Draft an answer to "{t}"',
    'Collect examples for "{t}"', 'Check the facts behind "{t}"', 'Estimate the effort for "{t}"',
    'Review the risks of "{t}"',
)
_FINDINGS = (
    "The key constraint is scope: the smallest version that works comes first.",
    "Three sources agree on the main point; one disagrees on details.",
    "The approach is feasible with the stated resources.",
    "Edge cases were listed and handled explicitly.",
    "The numbers were checked against a second method and match.",
    "A simpler alternative exists and was noted.",
)
_APPROVE_REASONS = ("The answer addresses the task directly.", "Claims are supported by the content.",
                    "The structure is clear and complete.")
_REVISE_REASONS = ("Part of the task is not addressed.", "One claim lacks support.",
                   "The answer is too vague in places.", "The conclusion does not follow from the steps.")


def _topic(text: str, words: int = 8) -> str:
    first = re.split(r"[.\n?!]", text.strip(), maxsplit=1)[0]
    topic = " ".join(first.split()[:words]) or "the goal"
    return topic[0].lower() + topic[1:]


def _clauses(goal: str) -> list[str]:
    parts = re.split(r",|;|\bthen\b|\band\b|\n", goal)
    return [p.strip(" .") for p in parts if len(p.strip(" .").split()) >= 2]


def write_plan(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    goal = str(meta.get("goal") or meta.get("task") or prompt)
    max_tasks = max(1, int(meta.get("max_tasks") or 6))
    clauses = _clauses(goal)
    count = min(max_tasks, len(clauses) if 2 <= len(clauses) <= 5 else rng.randint(2, 5))
    topic = _topic(goal)
    if 2 <= len(clauses) <= 5:
        bodies = [c[0].upper() + c[1:] for c in clauses[:count]]
    else:
        bodies = [s.format(t=topic) for s in rng.sample(_STEPS, min(count, len(_STEPS)))]
    tasks: list[dict[str, Any]] = []
    for index, body in enumerate(bodies):
        deps: list[str] = []
        if index > 0 and rng.random() < 0.4:
            deps = [f"t{rng.randint(1, index)}"]
        tasks.append({"id": f"t{index + 1}", "task": body, "depends_on": deps})
    if count >= 3 and count < min(6, max_tasks):  # a final step joins the loose ends (parallel ones too)
        used = {d for t in tasks for d in t["depends_on"]}
        leaves = [t["id"] for t in tasks if t["id"] not in used]
        tasks.append({"id": f"t{count + 1}", "task": f'Combine the results into the final answer for "{topic}"',
                      "depends_on": leaves})
    elif count == 2:
        tasks[1]["depends_on"] = ["t1"]
    return json.dumps({"tasks": tasks})


def write_result(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    if meta.get("role") == "reduce":
        return _write_report(rng, prompt, meta)
    subject = _subject(str(meta.get("task") or "")) or _topic(prompt, 16)
    lines = [f"Result for: {subject}"]
    round_ = int(meta.get("round") or 0)
    if round_ > 0:
        lines.append(f"Revision {round_}: addressed the reviewer's feedback point by point.")
    lines.extend(rng.sample(_FINDINGS, 2 + rng.randint(0, 2)))
    lines.append("Conclusion: the task is done; the main outcome is summarised above.")
    return "\n".join(lines)


def _write_report(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    """A reduce's reply: one line per answer it was given (by what the answer is about), then findings."""
    subjects = [_subject(line) for line in prompt.splitlines() if line.startswith("- ")]
    subjects = [s for s in subjects if s] or [_subject(prompt) or "the answers"]
    lines = [f"Report combining {len(subjects)} answer{'s' if len(subjects) != 1 else ''}:"]
    round_ = int(meta.get("round") or 0)
    if round_ > 0:
        lines.append(f"Revision {round_}: every claim the reviewer questioned is now backed by an answer.")
    lines.extend(f"- {subject}: {rng.choice(_FINDINGS)}" for subject in subjects)
    lines.append(f"Overall: {rng.choice(_FINDINGS)}")
    lines.append("Conclusion: the answers agree on the main point; where they differ, it is noted above.")
    return "\n".join(lines)


def _subject(text: str, words: int = 16) -> str:
    """What a text is about, in one short line: its first non-empty line without list markers or the
    heading of an earlier result ("Result for:"), at most `words` words ('' when there is none)."""
    for line in text.splitlines():
        while True:
            bare = line.strip().lstrip("-*• ").strip()
            bare = bare.removeprefix("Result for:").strip()
            if bare == line:
                break
            line = bare
        if line:
            parts = line.split()
            return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
    return ""


def write_verdict(rng: random.Random, prompt: str, meta: dict[str, Any], revise_rate: float,
                  reject_rate: float) -> str:
    round_ = int(meta.get("round") or 0)
    max_rounds = meta.get("max_rounds")
    last = max_rounds is not None and round_ >= int(max_rounds) - 1
    approve_score = float(meta.get("approve_score") or 0.7)
    roll = rng.random()
    if last:
        decision = "approve"
    elif roll < reject_rate:
        decision = "reject"
    else:
        decision = "revise" if roll < reject_rate + revise_rate * (0.4 ** round_) else "approve"
    if decision == "approve":
        score = round(approve_score + rng.random() * (1.0 - approve_score) * 0.95, 3)
        reasons = rng.sample(_APPROVE_REASONS, 2)
    else:
        score = round(rng.random() * approve_score * 0.9, 3)
        reasons = rng.sample(_REVISE_REASONS, 2)
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", prompt) if len(s.split()) >= 4]
    picked = rng.sample(sentences, min(len(sentences), rng.randint(1, 3))) or [_topic(prompt)]
    claims = [{"claim": s[:160], "supported": decision == "approve" or i > 0} for i, s in enumerate(picked)]
    return json.dumps({"decision": decision, "score": score, "reasons": reasons, "claims": claims})


def write_route(rng: random.Random, meta: dict[str, Any]) -> str:
    routes = [str(r) for r in meta.get("routes") or []] or ["default"]
    return rng.choice(routes)


def write_vote(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    # Answers are drawn from a few candidates with skewed weights so a majority is meaningful.
    base = random.Random(_topic(str(meta.get("task") or prompt), 30))
    candidates = [f"Answer: option {base.choice('ABCDE')}{n}" for n in range(1, 4)]
    return rng.choices(candidates, weights=(0.6, 0.25, 0.15))[0]


def write_sql(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    tables = re.findall(r"\b(?:table|from|FROM)\s+[\"`]?([A-Za-z_][A-Za-z0-9_]*)", prompt)
    table = tables[0] if tables else "items"
    limit = rng.choice((5, 10, 20))
    return f"SELECT *\nFROM {table}\nLIMIT {limit};"


def write_python(rng: random.Random, prompt: str, meta: dict[str, Any]) -> str:
    task = str(meta.get("task") or _topic(prompt, 12)).replace('"', "'")
    name = rng.choice(("solve", "run", "compute"))
    return (f'def {name}(data):\n    """{task}"""\n    result = [item for item in data if item is not None]\n'
            f"    return result\n")


def write_reply(rng: random.Random, prompt: str) -> str:
    return f"Here is a response to: {_topic(prompt, 16)}\n{rng.choice(_FINDINGS)}"


__all__ = ["write_plan", "write_python", "write_reply", "write_result", "write_route", "write_sql",
           "write_verdict", "write_vote"]
