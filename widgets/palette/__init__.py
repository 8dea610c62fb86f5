"""The role palette dock: the catalog's roles with colours, labels and summaries, and a filter box."""

from __future__ import annotations

from widgets.palette.palette_widget import ROLE_MIME, PaletteWidget
from widgets.palette.role_list_model import RoleListModel

__all__ = ["ROLE_MIME", "PaletteWidget", "RoleListModel"]
