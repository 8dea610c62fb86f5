"""Undo commands: one `QUndoCommand` per user edit, each changing only the workflow model.

Invariants: a command's `redo` applies the edit through the model's mutating methods and its
`undo` restores the model exactly; compound edits are `MacroCommand`s holding their children in Python
(PySide6 does not keep Qt-parented child commands alive). Only `app.document.Document` pushes them.
"""

from __future__ import annotations

from app.commands.comment_commands import add_comment_command, delete_comment_command, edit_comment_command
from app.commands.edge_commands import AddEdgeCommand, RemoveEdgeCommand
from app.commands.group_commands import group_command, ungroup_command
from app.commands.layout_commands import MoveNodesCommand, align_positions
from app.commands.macro import MacroCommand
from app.commands.node_commands import (
    AddNodeCommand,
    RemoveNodeCommand,
    SetParamCommand,
    SetTitleCommand,
    paste_command,
    remove_command,
)
from app.commands.settings_commands import SetContractsCommand, SetRunSettingsCommand, SetUiCommand

__all__ = [
    "AddEdgeCommand",
    "AddNodeCommand",
    "MacroCommand",
    "MoveNodesCommand",
    "RemoveEdgeCommand",
    "RemoveNodeCommand",
    "SetContractsCommand",
    "SetParamCommand",
    "SetRunSettingsCommand",
    "SetTitleCommand",
    "SetUiCommand",
    "add_comment_command",
    "align_positions",
    "delete_comment_command",
    "edit_comment_command",
    "group_command",
    "paste_command",
    "remove_command",
    "ungroup_command",
]
