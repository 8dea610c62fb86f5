"""A restricted expression language for router conditions: Python syntax, no side effects.

Allowed: literals, the given names, comparisons, boolean and arithmetic operators, subscripts,
conditional expressions, a few pure builtins and string methods. Anything else (attribute access
to other objects, imports, lambdas, comprehensions, dunder names) is refused with a clear message.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_, ast.IsNot: operator.is_not}
_FUNCS: dict[str, Callable[..., Any]] = {"len": len, "str": str, "int": int, "float": float, "bool": bool,
                                         "min": min, "max": max, "abs": abs, "any": any, "all": all}
_METHODS = frozenset({"lower", "upper", "strip", "startswith", "endswith", "split", "get", "count", "find"})
_MAX_SOURCE = 2000


class ExpressionError(ValueError):
    pass


def evaluate(source: str, names: Mapping[str, Any]) -> Any:
    if len(source) > _MAX_SOURCE:
        raise ExpressionError(f"expression longer than {_MAX_SOURCE} characters")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"invalid expression {source!r}: {exc.msg}") from None
    return _eval(tree.body, names)


def _eval(node: ast.AST, names: Mapping[str, Any]) -> Any:
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            if name in names:
                return names[name]
            if name in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[name]
            raise ExpressionError(f"unknown name {name!r}; available: {', '.join(sorted(names))}")
        case ast.BoolOp(op=bool_op, values=values):
            result: Any = isinstance(bool_op, ast.And)
            for value in values:
                result = _eval(value, names)
                if bool(result) != isinstance(bool_op, ast.And):
                    return result
            return result
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return not _eval(operand, names)
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return -_eval(operand, names)
        case ast.BinOp(left=left, op=bin_op, right=right) if type(bin_op) in _BINARY:
            return _BINARY[type(bin_op)](_eval(left, names), _eval(right, names))
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            current = _eval(left, names)
            for cmp_op, comparator in zip(ops, comparators, strict=True):
                other = _eval(comparator, names)
                if not _COMPARE[type(cmp_op)](current, other):
                    return False
                current = other
            return True
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return _eval(body, names) if _eval(test, names) else _eval(orelse, names)
        case ast.Subscript(value=value, slice=index):
            return _eval(value, names)[_eval(index, names)]
        case ast.List(elts=elts) | ast.Tuple(elts=elts):
            return [_eval(e, names) for e in elts]
        case ast.Call(func=ast.Name(id=name), args=args, keywords=[]) if name in _FUNCS:
            return _FUNCS[name](*(_eval(a, names) for a in args))
        case ast.Call(func=ast.Attribute(value=target, attr=attr), args=args, keywords=[]) if attr in _METHODS:
            obj = _eval(target, names)
            if not isinstance(obj, str | dict):
                raise ExpressionError(f".{attr}() is only allowed on text and objects")
            return getattr(obj, attr)(*(_eval(a, names) for a in args))
    raise ExpressionError(f"{type(node).__name__} is not allowed in a condition")
