"""App glue for keys: Settings → Models & keys, and the check before a run that its models have keys.

- `open_keys_dialog(parent)`: the one `KeysDialog` of `parent`'s window, opened non-modally
  (`open()`), raised if it is already open.
- `await ensure_keys(parent, plan, overrides, gateway)`: the preflight (`missing_keys`, in the
  executor: it may ask the OS keyring); nothing missing → True at once; otherwise a
  `MissingKeysDialog` is opened and awaited through its `finished` signal (never `exec()` inside a
  coroutine): True when the person stored what was missing and pressed Start run, False otherwise.

Invariant: self-contained (the main window only calls these two functions); keys stay in the keyring;
the dialogs (and the engine's key and provider modules they load, ~45 ms) are imported when first
opened, not at start-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QDialog, QWidget

if TYPE_CHECKING:
    from widgets.keys import KeysDialog

_DIALOG_PROPERTY = "triadic_keys_dialog"


def open_keys_dialog(parent: QWidget) -> KeysDialog:
    from widgets.keys import KeysDialog

    found = parent.findChild(KeysDialog, _DIALOG_PROPERTY)
    if found is None:
        found = KeysDialog(parent)
        found.setObjectName(_DIALOG_PROPERTY)
        found.open()
    else:
        found.refresh()
        found.show()
        found.raise_()
        found.activateWindow()
    return found


async def ensure_keys(parent: QWidget | None, plan: Any, overrides: Mapping[str, str], gateway: Any) -> bool:
    """True when every model the run calls has its key (after asking the person for missing ones)."""
    loop = asyncio.get_running_loop()

    def check() -> list[str]:
        from engine.runtime.preflight import missing_keys  # the runtime package: not at start-up

        return missing_keys(plan, dict(overrides), gateway)

    problems = await loop.run_in_executor(None, check)
    if not problems:
        return True
    from widgets.keys import MissingKeysDialog

    dialog = MissingKeysDialog(problems, check, parent)
    answered: asyncio.Future[int] = loop.create_future()

    def on_finished(result: int) -> None:
        if not answered.done():
            answered.set_result(result)

    dialog.finished.connect(on_finished)
    dialog.open()
    try:
        result = await answered
        return result == QDialog.DialogCode.Accepted and dialog.ready
    finally:
        dialog.deleteLater()
