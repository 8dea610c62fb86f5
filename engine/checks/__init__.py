"""Deterministic checks for verifier nodes: Python expression, JSON schema, regex, command, SQL.

Public API: `Verdict`, `run_check`, `CHECK_KINDS`, and the sandbox (`engine.checks.sandbox`:
`run_sandboxed`, `SandboxLimits`, `SandboxResult`, `sandbox_strength`). Subject code only ever runs in the sandbox
subprocess, never in the engine process. Importing this package is cheap (jsonschema is imported
on first use).
"""

from __future__ import annotations

from engine.checks.run import CHECK_KINDS, run_check
from engine.checks.sandbox import SandboxLimits, SandboxResult, run_sandboxed, sandbox_strength
from engine.checks.verdict import Verdict, approve, broken, reject, revise

__all__ = ["CHECK_KINDS", "SandboxLimits", "SandboxResult", "Verdict", "approve", "broken", "reject", "revise",
           "run_check", "run_sandboxed", "sandbox_strength"]
