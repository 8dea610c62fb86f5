"""Errors of tool calls. Policy violations and timeouts raise; a tool's own failure does not
(it comes back as `ToolResult.error`, so the model can read it and react)."""

from __future__ import annotations


class ToolError(Exception):
    """Base of tool-call errors; `tool` names the tool concerned."""

    def __init__(self, tool: str, message: str) -> None:
        super().__init__(message)
        self.tool = tool


class ToolDenied(ToolError):
    """The call is not allowed: tool not on the node's allow-list, unknown, or it writes and the
    node is read-only."""


class ToolTimeout(ToolError):
    """The tool did not answer within the node's timeout."""


class ToolSetupError(ToolError):
    """A tool could not be registered (bad name, unsupported parameter types, duplicate)."""
