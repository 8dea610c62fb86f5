"""Hit tests zoomed out to fit while Qt paints only where an item draws (`widgets.canvas.far_frame`): a click,
a tooltip, a right-click and a rubber band find the node under the mouse (the items stay in the index)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from tests.widgets.canvas_render import grab, mouse, node_center
from tests.widgets.test_canvas_far_frame import fitted_large_canvas, grab_walking_every_item
from widgets.canvas.context_menu import build_context_menu


@pytest.fixture
def big(qtbot):
    return fitted_large_canvas(qtbot)


def test_a_click_at_fit_selects_the_node_under_it(big):
    _, scene, view = big
    item = list(scene.node_items.values())[300]
    mouse(view, QEvent.Type.MouseButtonPress, node_center(view, item), Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseButtonRelease, node_center(view, item), Qt.MouseButton.LeftButton)
    assert view.selected_node_ids() == [item.node_id]


def test_a_tooltip_at_fit_is_the_nodes_under_the_mouse(big):
    _, scene, view = big
    item = list(scene.node_items.values())[700]
    item.setToolTip("the node under the mouse")
    pos = node_center(view, item).toPoint()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    assert QToolTip.text() == "the node under the mouse"
    QToolTip.hideText()


def test_a_right_click_at_fit_offers_the_menu_of_the_node_under_it(big, monkeypatch):
    _, scene, view = big
    offered: list[list[str]] = []

    class Shown:  # the menu as built, without a blocking exec()
        def __init__(self, view, scene_pos):
            build_context_menu(view, scene_pos)

        def exec(self, _at):
            offered.append(view.selected_node_ids())

    monkeypatch.setattr("widgets.canvas.view_popups.build_context_menu", Shown)
    item = list(scene.node_items.values())[900]
    view.show_context_menu(node_center(view, item), QPoint(0, 0))
    assert offered == [[item.node_id]]


def test_a_rubber_band_at_fit_selects_what_it_touches_and_shows(big, monkeypatch):
    _, scene, view = big
    rect = scene.content_rect()
    start = QPointF(view.mapFromScene(rect.topLeft())) + QPointF(-4, -4)
    end = QPointF(view.mapFromScene(rect.center()))
    before = grab(view)
    mouse(view, QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, (start + end) / 2, Qt.MouseButton.LeftButton)
    mouse(view, QEvent.Type.MouseMove, end, Qt.MouseButton.LeftButton)
    band = grab(view)
    assert band != before and band == grab_walking_every_item(view, monkeypatch)  # the band shows
    mouse(view, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.LeftButton)
    area = view.mapToScene(QRect(start.toPoint(), end.toPoint()).normalized()).boundingRect()
    touched = {i.node_id for i in scene.nodes_meeting(area)}
    assert touched and set(view.selected_node_ids()) == touched
