"""What a run needs that is slow to load, loaded in a worker thread when a person reaches for Run — never
on the GUI loop, and never merely because the window opened or a file was opened.

- the engine modules a first run imports (runtime, roles, simulated provider, store writer);
- the tokenizer tables (tiktoken rank tables, ~0.3 s from the cache, ~2.9 s the first time) of the
  models the open workflow names: every run counts tokens with them, the simulated provider too;
- litellm (1.6–2.8 s to import), only when the workflow names a model that goes through it (anything
  but `sim/...`): a simulated run never needs it.

When (`RunWarmup.start`): the Run action hovered (toolbar button or menu item), the Run menu opened,
the run's inputs dialog shown, and at the latest when a run, re-run or fork starts (`RunWarmup.ready`
waits for it there, off the GUI loop). Until then the window holds none of it: the tokenizer table of
one model alone is ~38 MB resident, litellm far more, and a person who only designs or reads never
needs them. A run pressed before the load finishes waits for what it needs (the loads are idempotent
and thread-safe): ~0.3–0.5 s for the engine and a tokenizer table from the cache, litellm's import
more; a run pressed after it finds everything loaded. Building a tokenizer table holds the GIL for one
stretch (~0.1–0.3 s, a C call) — measured by `tests/perf/bench_gui_run.py`.

Invariant: nothing here runs on the GUI thread except the scheduling (`preload_for`, `RunWarmup`).
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


class RunWarmup:
    """The load of what runs of a workflow need, started once per set of models (a later workflow
    naming other models loads those too)."""

    def __init__(self) -> None:
        self.loading: asyncio.Future[dict[str, float]] | None = None
        self._models: frozenset[str] = frozenset()

    def start(self, workflow: Workflow) -> asyncio.Future[dict[str, float]] | None:
        """Start loading what `workflow`'s runs need unless it is loaded or loading (None: no loop)."""
        models = frozenset(models_of(workflow))
        if self.loading is not None and models <= self._models and not self.loading.cancelled():
            return self.loading
        loading = preload_for(workflow)
        if loading is not None:
            self.loading, self._models = loading, self._models | models
        return loading

    async def ready(self, workflow: Workflow) -> None:
        """Return once what `workflow`'s runs need is loaded (starting the load if need be); a load
        that failed is left to the run itself, which loads on first use and says what went wrong."""
        loading = self.start(workflow)
        if loading is not None and not loading.done():
            await asyncio.wait([loading])


def preload_for(workflow: Workflow) -> asyncio.Future[dict[str, float]] | None:
    """Start warming what `workflow`'s runs will need, in the loop's executor (None: no running loop)."""
    try:
        loop = asyncio.get_event_loop()
    except RuntimeError:
        return None
    if loop.is_closed():
        return None
    return loop.run_in_executor(None, warm, models_of(workflow))
