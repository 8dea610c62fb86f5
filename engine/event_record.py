"""Frozen records: events and the model request / response made on every call.

A class made by `RecordMeta` is declared like a frozen dataclass (annotated fields, defaults,
`field(default_factory=...)`, `ClassVar` for class constants; keyword-only unless the class says
`kw_only=False`) and behaves like one, and only like one: same constructor, `repr`, equality (same
class, same values) and hash by value, `dataclasses.fields` / `asdict` / `replace` work, setting a field
raises `FrozenInstanceError`; it is not a sequence (`len`, `in`, iteration, indexing and unpacking raise
TypeError) and `json.dumps` refuses it as it refuses a dataclass. Each field is a slot, read through its
C-level member descriptor; the generated constructor fills the slots through those descriptors
directly, with no `__init__` or `__setattr__` per field.

The trace store packs a record as its row, a plain tuple: `record_row(record)` gives it, and
`record_from_row(cls, row)` makes the record back. A record class with a `kind` class constant —
every `EventRecord` — starts its row with it: `(kind, *fields)`.

Invariants:
- `record_row(record) == (*values in field order)`, `record_row(event) == (kind, *values in field order)`;
- `record_from_row(cls, row)` rebuilds a record from such a row without checks (the caller checks the
  kind and the length);
- records do not order (`<` raises TypeError, as for a dataclass without `order=True`), and a record
  never equals a record of another class or a tuple.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar, dataclass_transform

from engine.fast_init import field_parameters, signature

_new_object = object.__new__
_NO_VALUE: Any = object()  # "no declared default" in a class namespace
R = TypeVar("R", bound="TupleRecord")


def record_from_row(cls: type[R], row: Sequence[Any]) -> R:
    """The record of class `cls` whose row is `row` (an event's: its kind, then every field value, in order)."""
    return cls._from_row(row)  # type: ignore[attr-defined, no-any-return]


def record_row(record: TupleRecord) -> tuple[Any, ...]:
    """The row the trace store packs: `(kind, *values)` for an event, `(*values)` for another record."""
    return type(record)._row(record)  # type: ignore[attr-defined, no-any-return]


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
        namespace["__slots__"] = tuple(own)
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        inherited = [(f.name, f.type, _as_field(f, f.kw_only)) for base in bases
                     for f in getattr(base, "__dataclass_fields__", {}).values()]
        # the dataclass machinery itself describes the fields (so `dataclasses.fields`/`replace` work)
        shadow: Any = dataclasses.make_dataclass(name, inherited + specs, kw_only=kw_only, frozen=True)
        type.__setattr__(cls, "__dataclass_fields__", shadow.__dataclass_fields__)
        type.__setattr__(cls, "__dataclass_params__", shadow.__dataclass_params__)
        tagged = getattr(cls, "kind", None) is not None  # an event's row starts with its kind
        names = [*(["kind"] if tagged else []), *shadow.__dataclass_fields__]
        row = operator.attrgetter(*names) if len(names) > 1 else lambda record: tuple(getattr(record, n) for n in names)
        type.__setattr__(cls, "_row", staticmethod(row))
        type.__setattr__(cls, "__new__", staticmethod(_constructor(cls, shadow)))
        type.__setattr__(cls, "_from_row", staticmethod(_from_row(cls, shadow, tagged=tagged)))
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


def _setters(cls: type[Any], shadow: type[Any], env: dict[str, Any]) -> list[str]:
    """The lines that fill each field's slot through its member descriptor (names put in `env`)."""
    for f in dataclasses.fields(shadow):
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
    return [f"    _set_{f.name}(self, {f.name})" for f in dataclasses.fields(shadow)]


def _compile(cls: type[Any], source: str, env: dict[str, Any], name: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    function: Callable[..., Any] = namespace[name]
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    function.__module__ = cls.__module__
    return function


def _constructor(cls: type[Any], shadow: type[Any]) -> Callable[..., Any]:
    env: dict[str, Any] = {"_new_object": _new_object}
    positional, keyword, body = field_parameters(dataclasses.fields(shadow), env)
    source = (f"def __new__({signature('cls', positional, keyword)}):\n" + "".join(line + "\n" for line in body)
              + "    self = _new_object(cls)\n" + "".join(line + "\n" for line in _setters(cls, shadow, env))
              + "    return self")
    return _compile(cls, source, env, "__new__")


def _from_row(cls: type[Any], shadow: type[Any], *, tagged: bool) -> Callable[[Sequence[Any]], Any]:
    env: dict[str, Any] = {"_new_object": _new_object, "_cls": cls}
    names = [f.name for f in dataclasses.fields(shadow)]
    unpack = ", ".join(["_kind", *names] if tagged else names)
    source = (f"def _from_row(row):\n    {unpack + ', = row' if unpack else 'assert not row'}\n    self = _new_object(_cls)\n"
              + "".join(line + "\n" for line in _setters(cls, shadow, env)) + "    return self")
    return _compile(cls, source, env, "_from_row")


def _unorderable(self: Any, other: Any) -> Any:
    return NotImplemented


class TupleRecord(metaclass=RecordMeta):
    """The base of every record (see the module docstring). The name is older than the design: a
    record is no longer a tuple; only its row, `record_row(record)`, is."""

    __slots__ = ()
    __lt__ = __le__ = __gt__ = __ge__ = _unorderable  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._row(self) == other._row(other)  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._row(self))  # type: ignore[attr-defined, no-any-return]

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__dataclass_fields__)
        return f"{type(self).__qualname__}({values})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy go through the row, not the constructor
        return record_from_row, (type(self), self._row(self))  # type: ignore[attr-defined]


class EventRecord(TupleRecord):
    """The base of every event class: its row starts with the class's `kind`."""

    kind: ClassVar[str] = "record"
