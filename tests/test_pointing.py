"""Pointing answers (issue 45): coordinates read in the model's own convention, scored against the region."""

from __future__ import annotations

import pytest

from probe_ui.pointing import PointError, Pointed, iou, is_right, read_point

W, H = 200, 100
REGION = [[40, 20, 80, 60]]


@pytest.mark.parametrize(("text", "convention", "point"), [
    ("The nodule is at (60, 40).", "pixels", (60, 40)),
    ('{"point_2d": [61, 41], "label": "nodule"}', "pixels", (61, 41)),
    ("x=60, y=40", "pixels", (60, 40)),
    ("Point: [0.3, 0.4]", "unit", (60, 40)),
    ('<point x="30.0" y="40.0" alt="nodule">nodule</point>', "percent", (60, 40)),
    ("[400, 300]", "1000", (60, 40)),  # Gemini: y then x, 0-1000
    ("<loc0409><loc0307> nodule", "loc", (307 * W / 1023, 409 * H / 1023)),
])
def test_a_point_is_read_in_the_models_convention(text: str, convention: str, point: tuple[float, float]) -> None:
    p = read_point(text, convention, W, H)
    assert p is not None and p.is_point
    assert (p.x0, p.y0) == pytest.approx(point)


def test_a_box_is_scored_by_iou_and_a_point_by_falling_inside() -> None:
    box = read_point('{"bbox_2d": [42, 22, 82, 58]}', "pixels", W, H)
    assert box is not None and not box.is_point and is_right(box, REGION)
    assert iou(box, (40, 20, 80, 60)) > 0.8
    far = read_point("[100, 20, 180, 90]", "pixels", W, H)
    assert far is not None and not is_right(far, REGION)
    inside, outside = read_point("(50, 30)", "pixels", W, H), read_point("(150, 30)", "pixels", W, H)
    assert inside is not None and is_right(inside, REGION)
    assert outside is not None and not is_right(outside, REGION)
    assert is_right(Pointed(150, 80, 150, 80), [[0, 0, 10, 10], [140, 70, 160, 90]])  # any of several boxes


@pytest.mark.parametrize(("text", "convention"), [
    ("The nodule is in the left upper lobe.", "pixels"),  # no coordinates: invalid, never guessed
    ("(250, 40)", "pixels"),  # outside the image
    ("[1.4, 0.2]", "unit"),  # outside the convention's range
    ("<loc0409> only one", "loc"),
])
def test_coordinates_that_cannot_be_read_are_unreadable(text: str, convention: str) -> None:
    assert read_point(text, convention, W, H) is None


def test_an_unknown_convention_is_refused() -> None:
    with pytest.raises(PointError, match="known: pixels"):
        read_point("(1, 2)", "inches", W, H)
