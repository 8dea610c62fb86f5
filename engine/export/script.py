"""A workflow as a standalone Python script: `workflow_script(text, source=..., base_dir=...)`.

The script (template `workflow_script.txt` beside this module) embeds the workflow file's text and
runs it headless on the engine with the options of `triadic run` (inputs, model overrides, limits,
seed, `--offline` on the simulated provider, `--json`, `--db`). The embedded text is checked to be a
loadable workflow first, so a script is never written for a file that would not run.

Invariant: the script holds the workflow file as it is — no key can be in it, because a workflow
file that holds a secret does not validate (`secret_param`), and validation errors refuse the export.
"""

from __future__ import annotations

from pathlib import Path

_TEMPLATE = Path(__file__).with_name("workflow_script.txt")


class ScriptExportError(ValueError):
    """The workflow cannot be exported as a script; the message names the problems."""


def workflow_script(text: str, *, source: str, base_dir: Path | None = None) -> str:
    """The Python source of a script that runs the workflow `text` (the contents of file `source`)."""
    from engine.graph.format import WorkflowFileError, loads_workflow
    from engine.graph.validate import validate

    try:
        workflow = loads_workflow(text, source=source)
    except WorkflowFileError as exc:
        raise ScriptExportError(f"{source}: {exc}") from None
    errors = [p for p in validate(workflow) if p.severity == "error"]
    if errors:
        raise ScriptExportError(f"{source}: " + "; ".join(p.message for p in errors))
    title = (workflow.name or Path(source).name).replace('"""', "'''").replace("\\", "/")
    return (_TEMPLATE.read_text(encoding="utf-8")
            .replace("__TRIADIC_TITLE__", title)
            .replace("__TRIADIC_SOURCE__", Path(source).name.replace('"""', "'''").replace("\\", "/"))
            .replace("__TRIADIC_BASE_DIR__", repr(str(base_dir or Path(source).resolve().parent)))
            .replace("__TRIADIC_WORKFLOW_JSON__", repr(text)))
