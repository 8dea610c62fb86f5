"""One editor widget per parameter kind of `engine.graph.specs.ParamSpec` (`editor_for`).

Every editor has `set_value(value)` (from the model: never emits) and emits `committed(value)`
when the person finishes an edit; see `text_editors` and `value_editors` for the kinds.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from engine.graph.specs import ParamSpec
from widgets.inspector.editor_base import ParamEditor
from widgets.inspector.text_editors import JsonEditor, LineEditor, TextEditor, template_variables
from widgets.inspector.value_editors import (
    BoolEditor,
    ChoiceEditor,
    FloatEditor,
    IntEditor,
    ListEditor,
    ModelEditor,
)

__all__ = [
    "EDITORS", "BoolEditor", "ChoiceEditor", "FloatEditor", "IntEditor", "JsonEditor", "LineEditor",
    "ListEditor", "ModelEditor", "ParamEditor", "TextEditor", "editor_for", "template_variables",
]

EDITORS: dict[str, type[ParamEditor]] = {
    "str": LineEditor, "text": TextEditor, "int": IntEditor, "float": FloatEditor, "bool": BoolEditor,
    "model": ModelEditor, "choice": ChoiceEditor, "list": ListEditor, "json": JsonEditor,
}


def editor_for(spec: ParamSpec, parent: QWidget | None = None) -> ParamEditor:
    return EDITORS.get(spec.kind, LineEditor)(spec, parent)
