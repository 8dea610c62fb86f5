"""Benchmarks: scripts that print JSON-line figures (not timed tests; not in the default run)."""
