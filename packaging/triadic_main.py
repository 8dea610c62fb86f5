"""Entry script of the bundled app (PyInstaller): the same `main` as the `triadic` console script.

One difference for a bundle started by a desktop rather than a shell: with no arguments and no terminal
(a double-click, the macOS Finder, the Windows Start menu), or with only workflow files as arguments
(a file opened from a file manager; macOS passes it through argv emulation), it opens the GUI.
"""

from __future__ import annotations

import sys

from app.cli.main import main


def _arguments(argv: list[str]) -> list[str]:
    if not argv:
        interactive = sys.stdin is not None and sys.stdin.isatty()
        return argv if interactive else ["gui"]
    if len(argv) == 1 and argv[0].endswith(".json"):
        return ["gui", *argv]
    return argv


if __name__ == "__main__":
    sys.exit(main(_arguments(sys.argv[1:])))
