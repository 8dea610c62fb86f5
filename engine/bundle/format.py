"""The run bundle's format: a zip file with exactly five members (four in version 1), each named, sized
and hashed in the manifest.

- `manifest.json`: `{"format": "triadic-run-bundle", "version": 2, "run_id", "workflow_hash",
  "started_at", "events", "files": {member: {"sha256", "size"}}}`;
- `events.jsonl`: the run's events in seq order, one `Event.to_record()` JSON object a line;
- `workflow.json`: the workflow version the run ran (the store's document for its workflow hash);
- `recording.json`: the run's recorded calls as replay keys them — `[{"key", "node", "hash"}]` per
  model call, `[{"key", "node", "tool"}]` per tool call — checked against the events on import;
- `sub_graphs.json` (version 2): `{version hash: document}`, the workflow version each sub-graph node
  ran (a file it points to, or one held inline) as the run recorded it (`RunStarted.settings
  ["sub_graphs"]`: node path → version hash): exactly the versions the run names, each document hashing
  to its key — what lets another Triadic replay and fork the run without the sub-graph files.

A version-1 bundle (no sub-graphs member) is still read.

Limits (a bundle is untrusted input): the file, each member and each line are bounded, and members
are read with bounded reads whatever their headers claim; a member's compression ratio is bounded (a
zip bomb is refused before it is inflated); member names are exactly the four above (no folders, no
"..", no absolute paths, no repeats).
"""

from __future__ import annotations

FORMAT_NAME = "triadic-run-bundle"
FORMAT_VERSION = 2
BUNDLE_SUFFIX = ".triadic-run"
MANIFEST, EVENTS, WORKFLOW, RECORDING = "manifest.json", "events.jsonl", "workflow.json", "recording.json"
SUB_GRAPHS = "sub_graphs.json"
MEMBERS = (MANIFEST, EVENTS, WORKFLOW, RECORDING, SUB_GRAPHS)
MEMBERS_OF_VERSION = {1: MEMBERS[:4], 2: MEMBERS}  # the versions this Triadic reads, and their members

MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_MEMBER_BYTES = {MANIFEST: 64 * 1024, EVENTS: 1024 * 1024 * 1024, WORKFLOW: 16 * 1024 * 1024,
                    RECORDING: 256 * 1024 * 1024, SUB_GRAPHS: 64 * 1024 * 1024}
MAX_LINE_BYTES = 32 * 1024 * 1024  # one event
MAX_RATIO = 200  # inflated size / compressed size of a member
MAX_EVENTS = 5_000_000


class BundleError(ValueError):
    """A bundle that cannot be written or is refused on reading; the message says what and where."""
