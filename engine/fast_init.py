"""Faster constructors for frozen slot dataclasses made in bulk (the per-node settings of every
compiled plan).

A frozen dataclass's generated `__init__` writes each field through `object.__setattr__` (a lookup
and a call per field). `install_fast_init(cls)` replaces it with one that writes the slots through
their member descriptors directly: same signature (positional or keyword-only as declared), same
defaults and default factories, same resulting object; immutability is untouched (`__setattr__`
still raises). It refuses classes without slots, or with `__post_init__` or init=False fields.
`field_parameters` / `signature` (the generated parameters, defaults and factories) are shared with
`engine.event_record`, whose record constructors are generated the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, Field, fields
from typing import Any

_NO_VALUE: Any = object()


def field_parameters(cls_fields: Iterable[Field[Any]], env: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """The generated constructor's parameters for these dataclass fields — (positional, keyword-only,
    the lines that fill default factories) — with the defaults and factories they name put in `env`."""
    env["_NO_VALUE"] = _NO_VALUE
    positional: list[str] = []
    keyword: list[str] = []
    factories: list[str] = []
    for f in cls_fields:
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not MISSING:
            env[f"_factory_{f.name}"] = f.default_factory
            param = f"{f.name}=_NO_VALUE"
            factories.append(f"    if {f.name} is _NO_VALUE: {f.name} = _factory_{f.name}()")
        else:
            param = f.name
        (keyword if f.kw_only else positional).append(param)
    return positional, keyword, factories


def signature(first: str, positional: list[str], keyword: list[str]) -> str:
    return ", ".join([first, *positional, *(["*", *keyword] if keyword else [])])


def install_fast_init(cls: type[Any]) -> None:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: a frozen dataclass with slots and no __post_init__ is needed")
    env: dict[str, Any] = {}
    for f in fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: init=False fields are not supported")
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's member descriptor
    positional, keyword, body = field_parameters(fields(cls), env)
    body += [f"    _set_{f.name}(self, {f.name})" for f in fields(cls)]
    namespace: dict[str, Any] = {}
    exec(f"def __init__({signature('self', positional, keyword)}) -> None:\n" + "\n".join(body or ["    pass"]),
         env, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    setattr(cls, "__init__", init)  # noqa: B010 - replaces the generated __init__
