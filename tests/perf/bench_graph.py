"""Benchmark: validation of 5,000 nodes / 10,000 edges, and save / load of 1,000 and 5,000 nodes.

Prints JSON lines (medians over repeats). Peer figures: the target for validation (0.5 s) and, for
load / save, plain `json.loads` / `json.dumps(indent=2)` of the same document, i.e. what the
format's checks (limits, schema, secrets, model building) cost on top of the JSON itself.
Run: ``.venv/bin/python -m tests.perf.bench_graph``.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.graph.format import load_workflow, save_workflow, workflow_to_dict
from engine.graph.generate import generate_workflow
from engine.graph.validate import validate

REPEATS = 7


def median_s(action: Callable[[], object], repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 4), "unit": unit, **extra}), flush=True)


def main() -> None:
    big = generate_workflow(5000, edges_per_node=2, seed=0)
    assert len(big.edges) == 10_000
    problems = validate(big)
    emit("validate_5000_nodes_10000_edges", median_s(lambda: validate(big)), "s", peer="target", peer_value=0.5,
         problems=len(problems))
    with tempfile.TemporaryDirectory() as folder:
        for n in (1000, 5000):
            wf = generate_workflow(n, seed=0)
            path = Path(folder) / f"wf{n}.triadic.json"
            save_s = median_s(lambda wf=wf, path=path: save_workflow(wf, path))  # type: ignore[misc]
            data = workflow_to_dict(wf)
            raw_dump = median_s(lambda data=data: json.dumps(data, indent=2))  # type: ignore[misc]
            emit(f"save_{n}_nodes", save_s, "s", peer="json.dumps(indent=2)", peer_value=round(raw_dump, 4),
                 ratio=round(save_s / raw_dump, 2), bytes=path.stat().st_size)
            load_s = median_s(lambda path=path: load_workflow(path))  # type: ignore[misc]
            text = path.read_text(encoding="utf-8")
            raw_load = median_s(lambda text=text: json.loads(text))  # type: ignore[misc]
            emit(f"load_{n}_nodes", load_s, "s", peer="json.loads", peer_value=round(raw_load, 4),
                 ratio=round(load_s / raw_load, 2))


if __name__ == "__main__":
    main()
