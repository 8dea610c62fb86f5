"""The inspector dock: a form for the selected node built from its role's ParamSpecs, or run settings."""

from __future__ import annotations

from widgets.inspector.inspector_widget import InspectorWidget
from widgets.inspector.model_catalog import BUILTIN_MODELS, known_models
from widgets.inspector.param_editors import template_variables

__all__ = ["BUILTIN_MODELS", "InspectorWidget", "known_models", "template_variables"]
