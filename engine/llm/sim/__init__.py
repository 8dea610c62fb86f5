"""The simulated provider: role-aware, seeded, configurable latency / faults / pricing.

Two entries: `sim/...` models through the Gateway (litellm custom provider, `provider.py`, imported
only when litellm is) and `SimGateway`, the same replies without litellm for engine benchmarks.

Invariant: importing this package does not import litellm.
"""

from __future__ import annotations

from engine.llm.sim.config import FAULT_KINDS, SimConfig
from engine.llm.sim.direct import SimGateway
from engine.llm.sim.responder import SimReply, simulate

__all__ = ["FAULT_KINDS", "SimConfig", "SimGateway", "SimReply", "simulate"]
