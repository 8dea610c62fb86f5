"""Frozen records: events and the model request / response made on every call.

A class made by `RecordMeta` is declared like a frozen dataclass (annotated fields, defaults,
`field(default_factory=...)`, `ClassVar` for class constants; keyword-only unless the class says
`kw_only=False`) and behaves like one, and only like one: same constructor, `repr`, equality (same
class, same values) and hash by value, `dataclasses.fields` / `asdict` / `replace` work, setting a field
raises `FrozenInstanceError`; it is not a sequence (`len`, `in`, iteration, indexing and unpacking raise
TypeError) and `json.dumps` refuses it as it refuses a dataclass.

A record holds its row, a plain tuple, in its one slot: the trace store packs it as it is
(`record_row(record)` reads the slot, with no value gathered), `record_from_row(cls, row)` makes the
record back, and each field is a property reading its item of the row. A record class with a `kind`
class constant — every `EventRecord` — starts its row with it: `(kind, *fields)`. The generated
constructor builds the row and fills the slot, with no `__init__` or `__setattr__` per field.

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
_ROW = operator.attrgetter("_row_values")  # a record's row, the tuple its one slot holds
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
        # the one slot, `_row_values`, is declared once, by the first record class; each field is a property
        namespace["__slots__"] = () if any(isinstance(base, RecordMeta) for base in bases) else ("_row_values",)
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        inherited = [(f.name, f.type, _as_field(f, f.kw_only)) for base in bases
                     for f in getattr(base, "__dataclass_fields__", {}).values()]
        # the dataclass machinery itself describes the fields (so `dataclasses.fields`/`replace` work)
        shadow: Any = dataclasses.make_dataclass(name, inherited + specs, kw_only=kw_only, frozen=True)
        type.__setattr__(cls, "__dataclass_fields__", shadow.__dataclass_fields__)
        type.__setattr__(cls, "__dataclass_params__", shadow.__dataclass_params__)
        tagged = getattr(cls, "kind", None) is not None  # an event's row starts with its kind
        for index, field_name in enumerate(shadow.__dataclass_fields__, start=1 if tagged else 0):
            type.__setattr__(cls, field_name, _field_property(cls, field_name, index))
        type.__setattr__(cls, "_row", staticmethod(_ROW))
        type.__setattr__(cls, "__new__", staticmethod(_constructor(cls, shadow, tagged=tagged)))
        type.__setattr__(cls, "_from_row", staticmethod(_from_row(cls)))
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


def _field_property(cls: type[Any], name: str, index: int) -> property:
    """The field `name`, read from the record's row at `index`."""
    getter = _compile(cls, f"def {name}(self):\n    return self._row_values[{index}]\n", {}, name)
    return property(getter, doc=f"the field {name!r}: item {index} of the record's row")


def _row_values(shadow: type[Any], *, tagged: bool) -> str:
    """The expression of a new record's row in a generated constructor (its kind is `_kind` in `env`)."""
    names = [*(["_kind"] if tagged else []), *(f.name for f in dataclasses.fields(shadow))]
    return f"({', '.join(names)}{',' if len(names) == 1 else ''})"


def _compile(cls: type[Any], source: str, env: dict[str, Any], name: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(source, env, namespace)
    function: Callable[..., Any] = namespace[name]
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    function.__module__ = cls.__module__
    return function


def _constructor(cls: type[Any], shadow: type[Any], *, tagged: bool) -> Callable[..., Any]:
    env: dict[str, Any] = {"_new_object": _new_object, "_set_row": cls._row_values.__set__, "_kind": cls.kind if tagged else None}
    positional, keyword, body = field_parameters(dataclasses.fields(shadow), env)
    source = (f"def __new__({signature('cls', positional, keyword)}):\n" + "".join(line + "\n" for line in body)
              + f"    self = _new_object(cls)\n    _set_row(self, {_row_values(shadow, tagged=tagged)})\n    return self")
    return _compile(cls, source, env, "__new__")


def _from_row(cls: type[Any]) -> Callable[[Sequence[Any]], Any]:
    set_row = cls._row_values.__set__

    def from_row(row: Sequence[Any]) -> Any:
        record = _new_object(cls)
        set_row(record, tuple(row))
        return record

    from_row.__qualname__ = f"{cls.__qualname__}._from_row"
    return from_row


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
