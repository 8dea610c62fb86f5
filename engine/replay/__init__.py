"""Re-running a recorded run from its recording, and forking it at a step.

`Recording` (the run's calls by structural key), `ReplayGateway` (serves model calls, raises or goes
live on a divergence), `ReplayTools` / `ReplayMemory` / `replay_human` (tools, memory reads, human
answers from the recording), `load_source` / `prepare_replay` / `start_replay` (the re-run as a new
run with `replay_of`), `run_changes` / `workflow_changes` (what today's file and its sub-graph files
change in the recorded versions), and `fork` (a fork at a node's execution). Engine only: no Qt.
"""

from engine.replay.changes import RunChanges, run_changes, workflow_changes
from engine.replay.fork import ForkError, ForkPoint, downstream, edited_document, fork_point, prepare_fork
from engine.replay.gateway import ReplayDivergenceError, ReplayGateway
from engine.replay.recording import Recording
from engine.replay.rerun import (
    ReplayError,
    ReplaySetup,
    ReplaySource,
    load_source,
    prepare_replay,
    start_replay,
)
from engine.replay.services import ReplayMemory, ReplayTools, replay_human

__all__ = [
    "ForkError",
    "ForkPoint",
    "Recording",
    "ReplayDivergenceError",
    "ReplayError",
    "ReplayGateway",
    "ReplayMemory",
    "ReplaySetup",
    "ReplaySource",
    "ReplayTools",
    "RunChanges",
    "downstream",
    "edited_document",
    "fork_point",
    "load_source",
    "prepare_fork",
    "prepare_replay",
    "replay_human",
    "run_changes",
    "start_replay",
    "workflow_changes",
]
