"""Remembered user preferences (QSettings, INI format): recent files, theme, window geometry/state, the
OpenTelemetry export of finished runs (Settings ▸ Export), the playback track's scale (by time / by event).

Tests point QSettings at a temporary directory with `QSettings.setPath(IniFormat, UserScope, dir)`.
Invariant: only file paths and UI preferences are stored here, never secrets.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 10
THEMES = ("light", "dark")


def app_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Triadic", "triadic")


def recent_files() -> list[str]:
    value = app_settings().value("recent_files", [])
    items = [value] if isinstance(value, str) else list(value) if isinstance(value, list | tuple) else []
    return [str(v) for v in items if v][:MAX_RECENT]


def add_recent_file(path: str) -> list[str]:
    resolved = str(Path(path).resolve())
    files = [resolved, *[f for f in recent_files() if f != resolved]][:MAX_RECENT]
    app_settings().setValue("recent_files", files)
    return files


def clear_recent_files() -> None:
    app_settings().setValue("recent_files", [])


def theme() -> str:
    value = str(app_settings().value("theme", "light"))
    return value if value in THEMES else "light"


def set_theme(name: str) -> None:
    app_settings().setValue("theme", name)


def window_state() -> tuple[QByteArray | None, QByteArray | None]:
    settings = app_settings()
    geometry = settings.value("window/geometry")
    state = settings.value("window/state")
    return (geometry if isinstance(geometry, QByteArray) else None,
            state if isinstance(state, QByteArray) else None)


def save_window_state(geometry: QByteArray, state: QByteArray) -> None:
    settings = app_settings()
    settings.setValue("window/geometry", geometry)
    settings.setValue("window/state", state)


def otel_export() -> tuple[str, bool]:
    """Settings ▸ Export: the OTLP/HTTP receiver each finished run is sent to ("" = off), and whether
    prompts and replies go too."""
    settings = app_settings()
    endpoint = str(settings.value("export/otel_endpoint", "") or "").strip()
    return endpoint, str(settings.value("export/otel_include_content", "false")).lower() == "true"


def set_otel_export(endpoint: str, include_content: bool) -> None:
    settings = app_settings()
    settings.setValue("export/otel_endpoint", endpoint.strip())
    settings.setValue("export/otel_include_content", "true" if include_content else "false")


def playback_by_event() -> bool:
    """Whether the playback track is scaled by event (each event the same width) rather than by time."""
    return str(app_settings().value("playback/by_event", "false")).lower() == "true"


def set_playback_by_event(on: bool) -> None:
    app_settings().setValue("playback/by_event", "true" if on else "false")
