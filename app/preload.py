"""What is slow to load, loaded in a worker thread after the window shows — never on the GUI loop.

- the engine modules a first run imports (runtime, roles, simulated provider, store writer);
- the tokenizer tables (tiktoken rank tables, ~0.3 s from the cache, ~2.9 s the first time) of the
  models the open workflow names: every run counts tokens with them, the simulated provider too;
- litellm (1.6–2.8 s to import), only when the workflow names a model that goes through it (anything
  but `sim/...`): a simulated run never needs it.

A first run pressed before this finishes simply waits for what it needs (the loads are idempotent and
thread-safe); a run pressed after it finds everything loaded. Building a tokenizer table holds the GIL
for one stretch (~0.1–0.3 s, a C call): the loop stalls that long once, right after the window shows,
when the person is not yet doing anything — measured by `tests/perf/bench_gui_run.py`.

Invariant: nothing here runs on the GUI thread except `preload_for` itself (it only schedules).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable

from engine.graph.model import Workflow


def models_of(workflow: Workflow) -> list[str]:
    return sorted({str(n.param("model")) for n in workflow.nodes.values() if n.param("model")})


def warm(models: Iterable[str]) -> dict[str, float]:
    """Load the tokenizer of each model, then litellm if a model needs it; seconds spent on each."""
    from engine.llm.tokens import count_text, encoding_name

    spent: dict[str, float] = {}
    start = time.perf_counter()
    _import_run_modules()
    spent["engine"] = time.perf_counter() - start
    names = sorted({encoding_name(m) for m in models} or {"cl100k_base"})
    for name in names:
        start = time.perf_counter()
        count_text("warm", {"o200k_base": "gpt-4o", "cl100k_base": "gpt-4"}.get(name, name))
        spent[name] = time.perf_counter() - start
    if any(not m.startswith("sim/") for m in models):
        from engine.llm.litellm_setup import load_litellm

        start = time.perf_counter()
        load_litellm()
        spent["litellm"] = time.perf_counter() - start
    return spent


def _import_run_modules() -> None:
    """What a first run loads on first use (the runtime, the roles, the simulated provider, the store
    writer, jsonschema for plans and verdicts ~130 ms, litellm's bundled price table ~30 ms)."""
    import importlib

    for name in ("engine.runtime.run", "engine.runtime.scheduler", "engine.runtime.llmcall", "engine.roles",
                 "engine.llm.offline_first", "engine.llm.sim.direct", "engine.store.writer",
                 "engine.graph.validate", "engine.runtime.plan", "jsonschema"):
        importlib.import_module(name)  # the project's own modules: a rename must fail here, loudly
    from engine.llm.prices import bundled_price
    from engine.roles.reply_schemas import PLAN_SCHEMA, VERDICT_SCHEMA, schema_problems

    bundled_price("gpt-4o-mini")
    schema_problems({}, PLAN_SCHEMA)  # builds the two validators once
    schema_problems({}, VERDICT_SCHEMA)


def preload_for(workflow: Workflow) -> asyncio.Future[dict[str, float]] | None:
    """Start warming what `workflow`'s runs will need, in the loop's executor (None: no running loop)."""
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:
        return None
    if loop.is_closed():
        return None
    return loop.run_in_executor(None, warm, models_of(workflow))
