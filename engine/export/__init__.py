"""Exports of runs to other tools: `engine.export.otel` (OpenTelemetry, GenAI semantic conventions)."""
