"""Bundled data, loaded with importlib.resources."""
