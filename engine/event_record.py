"""Frozen records whose instances are tuples: events (the event *is* the row the trace store packs)
and the model request / response made on every call.

A class made by `RecordMeta` is declared like a frozen dataclass (annotated fields, defaults,
`field(default_factory=...)`, `ClassVar` for class constants; keyword-only unless the class says
`kw_only=False`) and behaves like one: same constructor, `repr`, equality (same class, same values)
and hash by value, `dataclasses.fields` / `asdict` / `replace` work, setting a field raises
`FrozenInstanceError`. But an instance is a tuple of its field values, the base class's first — so
making one is a single C-level tuple construction (a frozen slotted dataclass writes each field
through a descriptor, about ten times slower), and reading a field is an item lookup
(`collections._tuplegetter`, what `namedtuple` uses). A record class with a `kind` class constant —
every `EventRecord` — starts its tuples with it: `(kind, *fields)`, which the store packs as it is,
with no conversion per event.

Invariants:
- `tuple(record) == (*values in field order)`, `tuple(event) == (kind, *values in field order)`;
- `record_from_row(cls, row)` rebuilds a record from such a row without checks (the caller checks the
  kind and the length);
- records do not order (`<` raises TypeError, as for a dataclass without `order=True`), and a record
  never equals a record of another class or a plain tuple.
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
class RecordMeta(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], *, kw_only: bool = True,
                **kwargs: Any) -> type:
        annotations = namespace.get("__annotations__", {})
        own = [n for n, a in annotations.items() if not _is_classvar(a)]
        specs = [(n, annotations[n], _as_field(namespace.pop(n, _NO_VALUE))) for n in own]
        namespace["__slots__"] = ()
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        inherited = [(f.name, f.type, _as_field(f, f.kw_only)) for base in bases
                     for f in getattr(base, "__dataclass_fields__", {}).values()]
        # the dataclass machinery itself describes the fields (so `dataclasses.fields`/`replace` work)
        shadow: Any = dataclasses.make_dataclass(name, inherited + specs, kw_only=kw_only, frozen=True)
        type.__setattr__(cls, "__dataclass_fields__", shadow.__dataclass_fields__)
        type.__setattr__(cls, "__dataclass_params__", shadow.__dataclass_params__)
        first = 1 if getattr(cls, "kind", None) is not None else 0  # an event's tuple starts with its kind
        for index, field_name in enumerate(shadow.__dataclass_fields__, start=first):
            type.__setattr__(cls, field_name, _tuplegetter(index, f"{name}.{field_name}"))
        type.__setattr__(cls, "__new__", staticmethod(_constructor(cls, shadow, tagged=bool(first))))
        return cls


def _as_field(value: Any, kw_only: Any = dataclasses.MISSING) -> Any:
    """A field spec for `make_dataclass`: the declared `field(...)`, a default, or none (an inherited
    field keeps its `kw_only`)."""
    if value is _NO_VALUE:
        return dataclasses.field()
    if isinstance(value, dataclasses.Field):
        if value.default_factory is not dataclasses.MISSING:
            return dataclasses.field(default_factory=value.default_factory, kw_only=kw_only)
        if value.default is not dataclasses.MISSING:
            return dataclasses.field(default=value.default, kw_only=kw_only)
        return dataclasses.field(kw_only=kw_only)
    return dataclasses.field(default=value)


def _constructor(cls: type[Any], shadow: type[Any], *, tagged: bool) -> Callable[..., Any]:
    env: dict[str, Any] = {"_new_tuple": _new_tuple, "_kind": getattr(cls, "kind", None)}
    positional, keyword, body = field_parameters(dataclasses.fields(shadow), env)
    values = ("_kind, " if tagged else "") + "".join(f"{f.name}, " for f in dataclasses.fields(shadow))
    source = (f"def __new__({signature('cls', positional, keyword)}):\n" + "".join(line + "\n" for line in body)
              + f"    return _new_tuple(cls, ({values}))")
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    constructor: Callable[..., Any] = namespace["__new__"]
    constructor.__qualname__ = f"{cls.__qualname__}.__new__"
    constructor.__module__ = cls.__module__
    return constructor


def _unorderable(self: Any, other: Any) -> Any:
    return NotImplemented


class TupleRecord(tuple, metaclass=RecordMeta):  # type: ignore[type-arg]
    """The base of every tuple record (see the module docstring)."""

    __lt__ = __le__ = __gt__ = __ge__ = _unorderable  # type: ignore[assignment]
    __hash__ = tuple.__hash__

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)  # type: ignore[operator]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        values = zip(self.__dataclass_fields__, self[len(self) - len(self.__dataclass_fields__):], strict=True)
        return f"{type(self).__qualname__}({', '.join(f'{name}={value!r}' for name, value in values)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy go through the tuple, not the constructor
        return record_from_row, (type(self), tuple(self))


class EventRecord(TupleRecord):
    """The base of every event class: its tuple starts with the class's `kind`."""

    kind: ClassVar[str] = "record"
