"""PyInstaller runtime hook: `PySide6.QtOpenGL` is answered with `PySide6.QtGui` inside the bundle.

pyqtgraph imports QtOpenGL when it is imported (PlotCurveItem, PColorMeshItem) but uses its classes only
to draw with OpenGL (`useOpenGL` / `enableExperimental`), which Triadic never turns on. On Qt 5 pyqtgraph
itself binds the name to QtGui the same way. The bundle leaves out the QtOpenGL binding (8.5 MB, see
packaging/README.md ▸ Size); the module is resolved only when something imports it, so a CLI start does
not pay for QtGui.
"""

from __future__ import annotations

import importlib
import importlib.abc
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

ALIASED, TARGET = "PySide6.QtOpenGL", "PySide6.QtGui"


class _AliasLoader(importlib.abc.Loader):
    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return importlib.import_module(TARGET)

    def exec_module(self, module: ModuleType) -> None:
        """The target module is already executed by its own import."""


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname != ALIASED:
            return None
        return ModuleSpec(fullname, _AliasLoader())


sys.meta_path.append(_AliasFinder())
