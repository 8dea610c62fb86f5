"""`triadic keys [list | set TARGET | delete TARGET]`: the API keys Triadic may use, never shown.

TARGET is a provider name (`openai`) or a server address (`https://llm.example.com/v1`): a node's
server address gets only the key stored for that server (see `engine.llm.keys`). `set` reads the key
from the terminal without echo, or from the first line of stdin when it is not a terminal, so a key
never appears in the shell history or the process list.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from app.cli.errors import EXIT_OK, EXIT_USAGE, CliError


def execute(args: argparse.Namespace) -> int:
    from engine.llm.keys import KeyStoreError, delete_key, list_keys, store_key

    if args.action == "list":
        from engine.llm.keys import keyring_problem

        if (problem := keyring_problem()) is not None:
            print(f"note: {problem}", file=sys.stderr)
        for status in list_keys(args.target or ()):
            where = status.source or "not set"
            hint = f" (${status.env_var})" if status.env_var and not status.is_set else ""
            print(f"{status.kind:8}  {status.target:40}  {where}{hint}")
        return EXIT_OK
    if not args.target:
        raise CliError(f"triadic keys {args.action}: name a provider or a server address", code=EXIT_USAGE)
    try:
        if args.action == "delete":
            for target in args.target:
                delete_key(target)
                print(f"deleted the key of {target}")
            return EXIT_OK
        if len(args.target) != 1:
            raise CliError("triadic keys set: one provider or server at a time", code=EXIT_USAGE)
        key = (getpass.getpass(f"key for {args.target[0]}: ") if sys.stdin.isatty()
               else sys.stdin.readline().strip())
        store_key(args.target[0], key)
    except KeyStoreError as exc:
        raise CliError(str(exc), code=EXIT_USAGE) from None
    print(f"stored a key for {args.target[0]}")
    return EXIT_OK
