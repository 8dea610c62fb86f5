"""Models & keys: where each provider's API key comes from, storing it in the OS keyring, testing it.

Public API: `KeysDialog` (Settings → Models & keys; signals `keys_changed()`, `test_finished(ok,
message)`) and `MissingKeysDialog(problems, recheck)` (before a run; `keys_stored()`, `ready`,
accept = start the run). Both are opened with `open()`. `key_access` is the one adapter to
`engine.llm.keys`.
"""

from widgets.keys.keys_dialog import KeysDialog
from widgets.keys.missing_keys_dialog import MissingKeysDialog

__all__ = ["KeysDialog", "MissingKeysDialog"]
