"""What today's workflow changes in what a recorded run ran: said before a re-run or a fork, which always
runs the recorded versions.

- `workflow_changes(recorded_doc, current_doc, within="")`: one line per node added, removed or changed
  (role, title, parameters, edges) and for the run settings; `within` names the sub-graph node path the
  two documents are the workflow of ("sub" → lines "sub/inner: params changed");
- `run_changes(document, sub_graphs, current_doc, base_dir)`: the top workflow's lines, then those of each
  sub-graph version the run recorded (`ReplaySource.sub_graphs`) against the sub-graph as today's workflow
  has it — its file read from `base_dir` (as compiling it would), or its inline graph; a file that cannot
  be read today is said, with the reason. A run recorded before sub-graph versions were kept has nothing to
  compare its sub-graphs with: `RunChanges.unchecked` names those sub-graph nodes (never a silent "no
  change"; the re-run of such a run reads today's files).

Invariant: reads files, never writes; engine only (no Qt).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_MAX_DEPTH = 8  # as deep as a plan compiles sub-graphs (`engine.runtime.plan`)


@dataclass(slots=True)
class RunChanges:
    lines: list[str] = field(default_factory=list)  # what differs, node paths first
    unchecked: list[str] = field(default_factory=list)  # sub-graph nodes whose recorded version is unknown

    def __bool__(self) -> bool:
        return bool(self.lines or self.unchecked)

    def bullets(self, most: int = 15) -> str:
        """The lines as a bulleted list, at most `most` of them ("… and N more")."""
        shown = self.lines[:most] + ([f"… and {len(self.lines) - most} more"] if len(self.lines) > most else [])
        return "\n".join(f"• {line}" for line in shown)

    def unchecked_note(self) -> str:
        """The sentence that says which sub-graph files cannot be checked, and why ("" when none)."""
        if not self.unchecked:
            return ""
        nodes = f"node{'s' if len(self.unchecked) > 1 else ''} {', '.join(self.unchecked)}"
        return (f"What sub-graph {nodes} ran cannot be checked against today's files: this run was recorded "
                "before Triadic kept the version of each sub-graph a run ran, so the re-run reads today's files.")


def workflow_changes(recorded: dict[str, Any], current: dict[str, Any], within: str = "") -> list[str]:
    """One line per node added, removed or changed (role, title, parameters, edges), and for settings."""
    def nodes(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {str(n.get("id")): n for n in doc.get("nodes") or [] if isinstance(n, dict)}

    def edges(doc: dict[str, Any], nid: str) -> list[tuple[str, str]]:
        return sorted((str(e.get("source")), str(e.get("target"))) for e in doc.get("edges") or []
                      if isinstance(e, dict) and nid in (e.get("source"), e.get("target")))

    at = f"{within}/" if within else ""
    old, new = nodes(recorded), nodes(current)
    lines = [f"{at}{nid}: added" for nid in new if nid not in old]
    lines += [f"{at}{nid}: removed" for nid in old if nid not in new]
    for nid in (n for n in old if n in new):
        what = [name for name in ("role", "title", "params") if old[nid].get(name) != new[nid].get(name)]
        if edges(recorded, nid) != edges(current, nid):
            what.append("edges")
        if what:
            lines.append(f"{at}{nid}: {', '.join(what)} changed")
    if recorded.get("settings") != current.get("settings"):
        lines.append(f"{within}: the sub-graph's run settings changed" if within else "run settings changed")
    return lines


def run_changes(document: dict[str, Any], sub_graphs: Mapping[str, dict[str, Any]], current: dict[str, Any],
                base_dir: Path | None) -> RunChanges:
    """What `current` (today's top workflow; its sub-graph files relative to `base_dir`) changes in what a run
    ran: its workflow version `document` and its sub-graph versions `sub_graphs` (node path → document;
    `ReplaySource.document` / `.sub_graphs`)."""
    found = RunChanges(workflow_changes(document, current))
    if not sub_graphs:
        found.unchecked = [str(n.get("id")) for n in document.get("nodes") or []
                           if isinstance(n, dict) and n.get("role") == "subgraph"]
        return found
    today = todays_sub_graphs(current, base_dir)
    for path, recorded in sorted(sub_graphs.items()):
        now = today.get(path)
        if isinstance(now, str):
            found.lines.append(f"{path}: {now}")
        elif now is not None:  # None: the node is gone or no longer a sub-graph (its parent's line says so)
            found.lines += workflow_changes(recorded, now, within=path)
    return found


def todays_sub_graphs(document: dict[str, Any], base_dir: Path | None, within: str = "",
                      depth: int = 0) -> dict[str, dict[str, Any] | str]:
    """Node path → the document each sub-graph node of `document` runs today, or why it cannot be read."""
    from engine.graph.format import load_workflow, workflow_from_dict, workflow_to_dict
    from engine.graph.problems import WorkflowFileError

    out: dict[str, dict[str, Any] | str] = {}
    if depth >= _MAX_DEPTH:
        return out
    for node in document.get("nodes") or []:
        if not isinstance(node, dict) or node.get("role") != "subgraph":
            continue
        path = f"{within}{node.get('id')}"
        given = node.get("params")
        params: dict[str, Any] = given if isinstance(given, dict) else {}
        file = str(params.get("path") or "")
        where = (base_dir or Path.cwd()) / file if file else None
        try:
            inner = load_workflow(where) if where is not None else \
                workflow_from_dict(params.get("graph"), source=path)
        except WorkflowFileError as exc:
            reason = exc.problems[0].message if exc.problems else str(exc)
            out[path] = f"its file {file} cannot be read today ({reason})" if file else \
                f"its graph cannot be read ({reason})"
            continue
        out[path] = inner_doc = workflow_to_dict(inner)
        out.update(todays_sub_graphs(inner_doc, where.parent if where is not None else base_dir, f"{path}/",
                                     depth + 1))
    return out
