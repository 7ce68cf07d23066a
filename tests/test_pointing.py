"""Pointing answers (issue 45): coordinates read in the model's own convention, scored against the region."""

from __future__ import annotations

import pytest

from probe_ui.reading.pointing import Pointed, PointError, iou, is_right, read_point

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


def _sent_image(body: dict) -> tuple[int, int]:
    import base64
    import io

    from PIL import Image

    for m in body["messages"]:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if part.get("type") == "image_url":
                return Image.open(io.BytesIO(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))).size
    raise AssertionError("no image in the request")


def test_a_point_item_is_right_inside_its_region_and_wrong_outside_against_the_loopback_server(
        tmp_path, fake_openai, monkeypatch, capsys) -> None:
    """The issue's check: a ``point`` item asked of a server that records requests; a reply inside the region is
    right, one outside wrong, one without coordinates invalid (never guessed); a model whose images are shrunk to
    its side limit, pointing in its own pixels, is read in the image it saw and scored in the item's pixels."""
    import json

    import numpy as np
    import yaml
    from helpers import run_cli
    from PIL import Image

    from probe_ui.store import Store

    Image.fromarray(np.full((100, 200), 90, np.uint8)).save(tmp_path / "chest.png")
    items = [{"id": f"p{i}", "image": "chest.png", "question": f"Point to the nodule ({i}).", "kind": "point",
              "region": REGION[0]} for i in range(3)]
    (tmp_path / "points.yaml").write_text(yaml.safe_dump({"items": items}))
    replies = {"(0)": "The nodule is at (0.3, 0.4).", "(1)": "(0.9, 0.2)", "(2)": "In the left upper zone."}
    fake_openai.responder = lambda body: next(v for k, v in replies.items() if k in json.dumps(body))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    db = str(tmp_path / "p.db")
    code, _, err = run_cli(capsys, "batch", str(tmp_path / "points.yaml"), "-m", "openai/fake-vlm", "--db", db,
                           "--no-progress", "--run", "r")
    assert code == 0, err
    sent = fake_openai.chat_requests[0].body["messages"][-1]["content"]
    assert "(x, y), each from 0 to 1 of the image's width and height" in json.dumps(sent)
    s = Store(db)
    rows = s.answers_frame(s.get_run("r").id).set_index("item_id")
    assert rows.loc["p0", "parsed"] == "(60, 40)" and rows.loc["p0", "correct"] == True  # noqa: E712
    assert rows.loc["p1", "parsed"] == "(180, 20)" and rows.loc["p1", "correct"] == False  # noqa: E712
    assert rows.loc["p2", "parsed"] != rows.loc["p2", "parsed"] and rows.loc["p2", "invalid"] == True  # noqa: E712 - NaN: none read
    assert rows.loc["p0", "method"] == "point"
    code, out, _ = run_cli(capsys, "score", "--db", db, "--run", "r", "--json")
    assert code == 0 and json.loads(out)["models"]["openai/fake-vlm"]["accuracy"]["value"] == pytest.approx(100 / 3)

    # a model that points in the pixels of what it saw (Qwen2.5-VL), with images shrunk to 50 px on the long side
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "q.yaml").write_text(yaml.safe_dump({"name": "q", "provider": "openai", "model": "fake-vlm",
                                                     "max_image_side": 50,
                                                     "options": {"point_convention": "pixels"}}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    replies.update({"(0)": '{"point_2d": [15, 10]}', "(1)": '{"point_2d": [45, 5]}'})
    code, _, err = run_cli(capsys, "batch", str(tmp_path / "points.yaml"), "-m", "q", "--db", db, "--no-progress",
                           "--run", "q")
    assert code == 0, err
    assert _sent_image(fake_openai.chat_requests[-1].body) == (50, 25)
    rows = s.answers_frame(s.get_run("q").id, detail=True).set_index("item_id")
    assert rows.loc["p0", "parsed"] == "(60, 40)" and rows.loc["p0", "correct"] == True  # noqa: E712
    assert rows.loc["p1", "parsed"] == "(180, 20)" and rows.loc["p1", "correct"] == False  # noqa: E712
    assert rows.loc["p0", "settings"]["point_convention"] == "pixels"  # how it was read, kept with the answer


def test_a_point_item_needs_its_region_and_a_model_an_known_convention(tmp_path, capsys, monkeypatch) -> None:
    import yaml
    from helpers import run_cli, write_png

    write_png(tmp_path / "a.png")
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(
        {"items": [{"id": "p", "image": "a.png", "question": "Point to it.", "kind": "point"}]}))
    code, _, err = run_cli(capsys, "batch", str(tmp_path / "bad.yaml"), "-m", "baseline/first",
                           "--db", str(tmp_path / "x.db"), "--no-progress")
    assert code != 0 and "a point item needs its region" in err and "bad.yaml" in err
    (tmp_path / "ok.yaml").write_text(yaml.safe_dump(
        {"items": [{"id": "p", "image": "a.png", "question": "Point to it.", "kind": "point",
                    "region": [1, 1, 4, 4]}]}))
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "g.yaml").write_text(yaml.safe_dump({"name": "g", "provider": "openai", "model": "m",
                                                     "options": {"point_convention": "inches"}}))
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    code, _, err = run_cli(capsys, "batch", str(tmp_path / "ok.yaml"), "-m", "g", "--db", str(tmp_path / "x.db"),
                           "--no-progress")
    assert code != 0 and "model 'g': options.point_convention: unknown point convention 'inches'" in err


def test_the_detail_of_a_point_answer_draws_the_region_and_where_the_model_pointed(tmp_path, fake_openai,
                                                                                    monkeypatch, capsys) -> None:
    """The answer's detail: the item's image with the region outlined (yellow) and the model's point (cyan), with
    the verdict in words; an answer to another kind of item gets no such picture."""
    import numpy as np
    import yaml
    from helpers import run_cli
    from PIL import Image

    from probe_ui.store import Store
    from probe_ui.views.results.pointing_view import POINTED, caption, pointing_picture

    Image.fromarray(np.full((100, 200), 90, np.uint8)).save(tmp_path / "chest.png")
    items = [{"id": "p", "image": "chest.png", "question": "Point to the nodule.", "kind": "point",
              "region": REGION[0]},
             {"id": "y", "image": "chest.png", "question": "Is there a nodule?", "answer": "yes"}]
    (tmp_path / "points.yaml").write_text(yaml.safe_dump({"items": items}))
    fake_openai.responder = lambda body: "(0.75, 0.5)" if "Point to" in str(body) else "Yes"
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    db = str(tmp_path / "p.db")
    assert run_cli(capsys, "batch", str(tmp_path / "points.yaml"), "-m", "openai/fake-vlm", "--db", db,
                   "--no-progress", "--run", "r")[0] == 0
    s = Store(db)
    ids = s.answers_frame(s.get_run("r").id).set_index("item_id")["response_id"]
    r = s.get_response(int(ids["p"]))
    pic = np.asarray(pointing_picture(s, r).pil())
    assert tuple(pic[50, 150]) == POINTED  # the cross at (150, 50), outside the region
    assert tuple(pic[20, 60]) == (255, 200, 0) and tuple(pic[40, 60]) == (90, 90, 90)  # outline; inside untouched
    assert caption(r) == ("where it pointed (cyan) and the finding's region (yellow): (150, 50), outside the "
                          "region: wrong")
    assert pointing_picture(s, s.get_response(int(ids["y"]))) is None
