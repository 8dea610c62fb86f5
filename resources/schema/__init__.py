"""The published JSON Schema of the workflow file (written by ``python -m engine.graph.schema``)."""
