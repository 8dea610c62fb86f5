"""Benchmark: LLM gateway overhead and import cost.

- per-call overhead of `Gateway` + `sim/default` through litellm vs `SimGateway` direct (µs/call,
  streaming and not), medians over repeats, with the ratio;
- wall time of `python -c "import engine, engine.llm, engine.llm.gateway"` in a fresh interpreter,
  which must not import litellm, against `import litellm` as the peer.

Run: .venv/bin/python -m tests.perf.bench_gateway
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import time

from engine.llm.gateway import Gateway
from engine.llm.litellm_setup import load_litellm
from engine.llm.sim import SimGateway
from engine.llm.types import ChatGateway, LLMRequest

CALLS = 200
REPEATS = 5
IMPORT_REPEATS = 5


def _request(i: int, stream: bool) -> LLMRequest:
    return LLMRequest(model="sim/default", messages=[{"role": "user", "content": f"Do task {i}."}],
                      metadata={"role": "executor", "task": f"task {i}"}, seed=1, stream=stream)


async def _per_call_us(gateway: ChatGateway, stream: bool) -> float:
    medians = []
    for _ in range(REPEATS):
        requests = [_request(i, stream) for i in range(CALLS)]
        started = time.perf_counter()
        for request in requests:
            await gateway.complete(request, lambda _text: None)
        medians.append((time.perf_counter() - started) / CALLS * 1e6)
    return statistics.median(medians)


def _import_s(code: str) -> float:
    times = []
    for _ in range(IMPORT_REPEATS):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _emit(name: str, value: float, unit: str, **extra: object) -> None:
    print(json.dumps({"name": name, "value": round(value, 3), "unit": unit, **extra}), flush=True)


async def _calls() -> None:
    load_litellm()
    gateway, direct = Gateway(), SimGateway()
    await gateway.complete(_request(-1, True))  # warm-up: litellm's lazy imports
    for stream in (False, True):
        mode = "stream" if stream else "plain"
        via_litellm = await _per_call_us(gateway, stream)
        bypass = await _per_call_us(direct, stream)
        _emit(f"gateway_sim_call_{mode}", via_litellm, "us/call", peer="SimGateway direct",
              peer_value=round(bypass, 3), ratio=round(via_litellm / bypass, 2))


def main() -> None:
    check = "import sys, engine, engine.llm, engine.llm.gateway; assert 'litellm' not in sys.modules"
    gateway_import = _import_s(check)
    litellm_import = _import_s("import os; os.environ['LITELLM_LOCAL_MODEL_COST_MAP']='True'; import litellm")
    baseline = _import_s("pass")
    _emit("import_engine_llm_gateway", gateway_import, "s", peer="import litellm",
          peer_value=round(litellm_import, 3), ratio=round(gateway_import / litellm_import, 3),
          interpreter_startup_s=round(baseline, 3), litellm_imported=False)
    asyncio.run(_calls())


if __name__ == "__main__":
    main()
