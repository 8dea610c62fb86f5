"""Reusable Qt views over engine models: the canvas and the dock panels. Never imports `app`."""
