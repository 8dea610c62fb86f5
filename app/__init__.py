"""Triadic application: composition of the GUI (window, document, controllers) and the CLI."""
