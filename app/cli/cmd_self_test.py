"""`triadic self-test [--local]`: check, offline, that this installation finds every part it needs.

For packaged copies (the bundle, a wheel in a fresh venv; `make package-check` runs it): the bundled
resources, the tokenizer files and price map litellm ships, litellm's lazy import and a model call
through it (`sim/gpt-4o-mini`, priced from the map), numpy (a product, a solve, counts) and pyqtgraph
(a curve), Qt's platform plugins and ICU data (collation, case mapping, a converter), and — when installed, or required
with `--local` — the local SmolLM2 model. Prints one line per check (`ok`/`FAIL`/`skip`, a failure with
where it was raised), exits 1 when any check fails.
Not listed in `--help`: a support tool, not a user command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import traceback
from collections.abc import Callable
from pathlib import Path

from app.cli.errors import EXIT_FAILED
from app.resource_paths import bundled_examples, resource_dir

_PROMPT = [{"role": "user", "content": "Plan a small garden."}]


def _resources() -> str:
    examples = bundled_examples()
    missing = [f for f in ("themes/light.qss", "themes/dark.qss", "schema/workflow.schema.json",
                           "icons/triadic.svg", "icons/triadic-256.png", "examples/data")
               if not ((folder := resource_dir(f.split("/")[0])) and (folder / f.split("/", 1)[1]).exists())]
    if not examples or missing:
        raise RuntimeError(f"missing: {', '.join(missing) or 'the examples'}")
    return f"{len(examples)} examples, themes, schema, icons"


def _tokenizer() -> str:
    from engine.llm.tokens import count_text

    count = count_text("Plan a small garden.", "gpt-4o-mini")
    folder = Path(os.environ.get("TIKTOKEN_CACHE_DIR", ""))
    if count <= 0 or not folder.is_dir():
        raise RuntimeError(f"no tokens counted (BPE folder {folder})")
    return f"o200k_base: {count} tokens, BPE files in {folder}"


def _price_map() -> str:
    from engine.llm.prices import bundled_price

    price = bundled_price("gpt-4o-mini")
    if price is None:
        raise RuntimeError("gpt-4o-mini not in litellm's bundled price map")
    return f"gpt-4o-mini at ${price.input_per_token * 1e6:.3f} / ${price.output_per_token * 1e6:.3f} per M tokens"


def _litellm() -> str:
    from engine.llm.litellm_setup import load_litellm

    litellm = load_litellm()
    cost = float(litellm.completion_cost(model="gpt-4o-mini", prompt="Plan a small garden.", completion="Dig."))
    if cost <= 0:
        raise RuntimeError("completion_cost gave 0")
    return f"litellm {getattr(litellm, 'version', '')} imported lazily, completion_cost ${cost:.8f}".replace("  ", " ")


def _call(model: str) -> str:
    from engine.llm.gateway import Gateway
    from engine.llm.types import LLMRequest

    request = LLMRequest(model, _PROMPT, max_tokens=24, metadata={"role": "executor"})
    reply = asyncio.run(Gateway().complete(request))
    if not reply.content or reply.tokens_out <= 0:
        raise RuntimeError(f"empty reply from {model}")
    return f"{model} via litellm: {reply.tokens_in}+{reply.tokens_out} tokens, ${reply.cost_usd:.8f}" \
           f"{'' if reply.priced else ' (unpriced)'}"


def _local_load() -> str:
    from engine.llm.local import gguf_path, load_model

    load_model()
    path = gguf_path()
    return f"llama.cpp loaded {path.name if path else '?'}"


def _numpy() -> str:
    import numpy
    import pyqtgraph

    # The bundle's numpy is built without BLAS (packaging/numpy_without_blas.sh): its own loops and
    # lapack_lite compute the product and the solve; a wheel's numpy computes them with OpenBLAS.
    product = numpy.full((64, 64), 0.5) @ numpy.full((64, 64), 2.0)
    solved = numpy.linalg.solve(numpy.array([[2.0, 1.0], [1.0, 3.0]]), numpy.array([3.0, 5.0]))
    # what the canvas's density image and the timeline's coverage do (counts per cell), and a plot's curve
    counts = numpy.bincount(numpy.array([0, 2, 2, 5]), minlength=6).cumsum()
    curve = pyqtgraph.arrayToQPath(numpy.arange(5.0), numpy.arange(5.0) ** 2)
    computed = (float(product[3, 7]), solved.round(6).tolist(), counts.tolist(), curve.elementCount())
    if computed != (64.0, [0.8, 1.4], [1, 1, 3, 3, 3, 4], 5):
        raise RuntimeError(f"numpy and pyqtgraph computed {computed}")
    blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
    return (f"numpy {numpy.__version__} (BLAS: {blas}; product, solve, bincount computed), "
            f"pyqtgraph {pyqtgraph.__version__} (a curve's path)")


def _qt() -> str:
    from PySide6.QtCore import QLibraryInfo

    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"
    found = sorted(p.name for p in plugins.glob("libq*.so")) if plugins.is_dir() else []
    if not any("xcb" in name for name in found) or not any("offscreen" in name for name in found):
        raise RuntimeError(f"platform plugins missing in {plugins}: {found}")
    return f"platform plugins: {', '.join(found)}; {_icu()}"


# Converters the trimmed ICU keeps (packaging/trim_icu.py drops only the EBCDIC pages); opening one loads its table
CONVERTERS = ("Shift_JIS", "EUC-JP", "GB18030", "Big5", "EUC-KR", "windows-1251", "KOI8-R")


def _icu() -> str:
    """What Qt reads from ICU's data (the bundle carries it trimmed: packaging/trim_icu.py)."""
    import functools

    from PySide6.QtCore import QCollator, QLocale, QStringDecoder

    ordered = sorted(["z", "ä", "a"], key=functools.cmp_to_key(QCollator(QLocale("de_DE")).compare))
    upper = QLocale("tr_TR").toUpper("i")
    missing = [name for name in CONVERTERS if not QStringDecoder(name).isValid()]
    if ordered != ["a", "ä", "z"] or upper != "İ" or missing:
        raise RuntimeError(f"ICU: German collation {ordered}, Turkish upper-case of i {upper!r}, "
                           f"converters that do not open: {missing}")
    return f"ICU collation, case mapping and converters ({', '.join(CONVERTERS)})"


def execute(args: argparse.Namespace) -> int:
    from engine.llm.local import local_model_available

    checks: list[tuple[str, Callable[[], str] | None]] = [
        ("resources", _resources), ("tokenizer", _tokenizer), ("price map", _price_map), ("litellm", _litellm),
        ("model call", lambda: _call("sim/gpt-4o-mini")), ("numpy", _numpy), ("qt", _qt)]
    local = local_model_available()
    wanted = local or args.local
    checks.append(("local model load", _local_load if wanted else None))
    checks.append(("local model", (lambda: _call("local/smollm2")) if wanted else None))
    failed = skipped = 0
    for name, check in checks:
        if check is None:
            skipped += 1
            print(f"skip {name}: not installed here (optional; --local requires it)", flush=True)
            continue
        try:
            print(f"ok   {name}: {check()}", flush=True)
        except Exception as exc:  # every failure is reported, then the next check runs
            failed += 1
            where = traceback.extract_tb(exc.__traceback__)[-1]
            print(f"FAIL {name}: {type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})", flush=True)
    print(f"self-test: {len(checks) - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return EXIT_FAILED if failed else 0
