"""The headless command-line interface `triadic` (console script `app.cli.main:main`).

Sub-commands: run, validate, runs, show, gui. Invariant: importing this package and `app.cli.main`
is cheap — no litellm, SQLAlchemy or PySide6; each command imports what it needs when it runs.
"""
