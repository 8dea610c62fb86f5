"""The run bundle's format: a zip file with exactly four members, each named, sized and hashed in
the manifest.

- `manifest.json`: `{"format": "triadic-run-bundle", "version": 1, "run_id", "workflow_hash",
  "started_at", "events", "files": {member: {"sha256", "size"}}}`;
- `events.jsonl`: the run's events in seq order, one `Event.to_record()` JSON object a line;
- `workflow.json`: the workflow version the run ran (the store's document for its workflow hash);
- `recording.json`: the run's recorded calls as replay keys them — `[{"key", "node", "hash"}]` per
  model call, `[{"key", "node", "tool"}]` per tool call — checked against the events on import.

Limits (a bundle is untrusted input): the file, each member and each line are bounded, and members
are read with bounded reads whatever their headers claim; a member's compression ratio is bounded (a
zip bomb is refused before it is inflated); member names are exactly the four above (no folders, no
"..", no absolute paths, no repeats).
"""

from __future__ import annotations

FORMAT_NAME = "triadic-run-bundle"
FORMAT_VERSION = 1
BUNDLE_SUFFIX = ".triadic-run"
MANIFEST, EVENTS, WORKFLOW, RECORDING = "manifest.json", "events.jsonl", "workflow.json", "recording.json"
MEMBERS = (MANIFEST, EVENTS, WORKFLOW, RECORDING)

MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_MEMBER_BYTES = {MANIFEST: 64 * 1024, EVENTS: 1024 * 1024 * 1024, WORKFLOW: 16 * 1024 * 1024,
                    RECORDING: 256 * 1024 * 1024}
MAX_LINE_BYTES = 32 * 1024 * 1024  # one event
MAX_RATIO = 200  # inflated size / compressed size of a member
MAX_EVENTS = 5_000_000


class BundleError(ValueError):
    """A bundle that cannot be written or is refused on reading; the message says what and where."""
