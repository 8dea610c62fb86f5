"""Event classes whose instances are tuples: the event *is* the row the trace store packs.

A class made by `EventRecordMeta` is declared like a keyword-only frozen dataclass (annotated fields,
defaults, `field(default_factory=...)`, `ClassVar` for class constants) and behaves like one: same
keyword-only constructor, `repr`, equality and hash by value, `dataclasses.fields` / `asdict` /
`replace` work, setting a field raises `FrozenInstanceError`. But an instance is a tuple
`(kind, *fields)` — the class's `kind` then every field, the base class's first — so making one is a
single C-level tuple construction (a frozen slotted dataclass writes each field through a descriptor,
about six times slower), reading a field is an item lookup (`collections._tuplegetter`, what
`namedtuple` uses), and the store packs an event as it is, with no conversion per event.

Invariants:
- `tuple(event) == (kind, *values in field order)`; `len(event) == len(fields) + 1`;
- `record_from_row(cls, row)` rebuilds an event from such a row without checks (the caller checks the
  kind and the length);
- events do not order (`<` raises TypeError, as for a dataclass without `order=True`).
"""

from __future__ import annotations

import dataclasses
from collections import _tuplegetter  # type: ignore[attr-defined]  # namedtuple's field descriptor
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar, dataclass_transform

from engine.fast_init import field_parameters, signature

_new_tuple = tuple.__new__
_NO_VALUE: Any = object()  # "no declared default" in a class namespace
R = TypeVar("R", bound=tuple)  # type: ignore[type-arg]


def record_from_row(cls: type[R], row: Iterable[Any]) -> R:
    """The event of class `cls` whose tuple is `row` (the kind then every field value, in order)."""
    return _new_tuple(cls, row)


def _is_classvar(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(dataclasses.field,))
class EventRecordMeta(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> type:
        annotations = namespace.get("__annotations__", {})
        own = [n for n, a in annotations.items() if not _is_classvar(a)]
        specs = [(n, annotations[n], _as_field(namespace.pop(n, _NO_VALUE))) for n in own]
        namespace["__slots__"] = ()
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        inherited = [(f.name, f.type, _as_field(f)) for base in bases
                     for f in getattr(base, "__dataclass_fields__", {}).values()]
        # the dataclass machinery itself describes the fields (so `dataclasses.fields`/`replace` work)
        shadow: Any = dataclasses.make_dataclass(name, inherited + specs, kw_only=True, frozen=True)
        type.__setattr__(cls, "__dataclass_fields__", shadow.__dataclass_fields__)
        type.__setattr__(cls, "__dataclass_params__", shadow.__dataclass_params__)
        names = list(shadow.__dataclass_fields__)
        for index, field_name in enumerate(names, start=1):
            type.__setattr__(cls, field_name, _tuplegetter(index, f"{name}.{field_name}"))
        type.__setattr__(cls, "__new__", staticmethod(_constructor(cls, shadow)))
        return cls


def _as_field(value: Any) -> Any:
    """A field spec for `make_dataclass`: the declared `field(...)`, a default, or none."""
    if value is _NO_VALUE:
        return dataclasses.field()
    if isinstance(value, dataclasses.Field):
        if value.default_factory is not dataclasses.MISSING:
            return dataclasses.field(default_factory=value.default_factory)
        if value.default is not dataclasses.MISSING:
            return dataclasses.field(default=value.default)
        return dataclasses.field()
    return dataclasses.field(default=value)


def _constructor(cls: type[Any], shadow: type[Any]) -> Callable[..., Any]:
    env: dict[str, Any] = {"_new_tuple": _new_tuple, "_kind": cls.kind}
    positional, keyword, body = field_parameters(dataclasses.fields(shadow), env)
    values = "".join(f"{f.name}, " for f in dataclasses.fields(shadow))
    source = (f"def __new__({signature('cls', positional, keyword)}):\n" + "".join(line + "\n" for line in body)
              + f"    return _new_tuple(cls, (_kind, {values}))")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    constructor: Callable[..., Any] = namespace["__new__"]
    constructor.__qualname__ = f"{cls.__qualname__}.__new__"
    constructor.__module__ = cls.__module__
    return constructor


def _unorderable(self: Any, other: Any) -> Any:
    return NotImplemented


class EventRecord(tuple, metaclass=EventRecordMeta):  # type: ignore[type-arg]
    """The base of every event class (see the module docstring)."""

    kind: ClassVar[str] = "record"
    __lt__ = __le__ = __gt__ = __ge__ = _unorderable  # type: ignore[assignment]

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in zip(self.__dataclass_fields__, self[1:], strict=True))
        return f"{type(self).__qualname__}({values})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy go through the tuple, not the keyword constructor
        return record_from_row, (type(self), tuple(self))
