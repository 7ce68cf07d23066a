"""Image perturbations: exact geometry, seeded purity, dots where the provenance says, swaps, degradations."""

from __future__ import annotations

import itertools
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFilter

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb import PerturbationError, PerturbContext, apply, replay
from probe_ui.perturb.degrade import _normal_quantiles
from probe_ui.perturb.dots import cone_mask, foreground_mask, largest_component, nth_permutation
from probe_ui.perturb.overlay import COLOURS

ASSETS = Path(__file__).resolve().parent.parent / "assets"
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _img(w: int, h: int, mode: str = "RGB", seed: int = 0) -> CanonicalImage:
    rng = np.random.default_rng(seed)
    shape = (h, w) if mode == "L" else (h, w, 3)
    return CanonicalImage.from_pil(Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode=mode))


def _smooth(w: int = 96, h: int = 80, mode: str = "RGB") -> CanonicalImage:
    """A smooth image with structure (gradients + a disc), so that degradations have something to degrade."""
    yy, xx = np.mgrid[0:h, 0:w]
    g = 40 + 120 * xx / w + 60 * ((xx - w / 2) ** 2 + (yy - h / 2) ** 2 < (min(w, h) / 4) ** 2)
    g = np.clip(g + 20 * np.sin(yy / 3.0), 0, 255).astype(np.uint8)
    a = g if mode == "L" else np.stack([g, 255 - g, (g // 2 + 60).astype(np.uint8)], axis=-1)
    return CanonicalImage.from_pil(Image.fromarray(a, mode=mode))


def _variant(images: tuple[CanonicalImage, ...] = (), item_id: str = "q0", question: str = "What is shown?",
             options: tuple[str, ...] = ("cyst", "tumour", "abscess"), answer: str | None = "cyst") -> Variant:
    return Variant(item_id=item_id, question=question, kind="choice", options=options, answer=answer,
                   images=images, group=item_id)


def _px(v: Variant, i: int = 0) -> np.ndarray:
    return np.asarray(v.images[i].pil())


images_st = st.builds(lambda w, h, mode, seed: _img(w, h, mode, seed),
                      st.integers(1, 33), st.integers(1, 33), st.sampled_from(["L", "RGB"]), st.integers(0, 2**16))


# --- geometry ----------------------------------------------------------------------------------------------------


@FAST
@given(images_st)
def test_four_quarter_turns_give_back_the_original_pixels(image: CanonicalImage) -> None:
    v = _variant((image,))
    out = v
    for k in range(4):
        out = apply(out, "rotate", {"angle": 90}, seed=k)
        if k == 0 and image.width != image.height:
            assert (out.images[0].width, out.images[0].height) == (image.height, image.width)
    assert out.images[0].id == image.id
    assert apply(apply(v, "rotate", {"angle": 180}, 0), "rotate", {"angle": 180}, 0).image_ids == v.image_ids


@FAST
@given(images_st, st.sampled_from(["h", "v"]))
def test_flipping_twice_is_the_identity(image: CanonicalImage, axis: str) -> None:
    v = _variant((image,))
    once = apply(v, "flip", {"axis": axis}, 1)
    assert apply(once, "flip", {"axis": axis}, 2).image_ids == v.image_ids
    expected = np.fliplr(_px(v)) if axis == "h" else np.flipud(_px(v))
    assert np.array_equal(_px(once), expected)


# --- purity: same seed, same bytes ----------------------------------------------------------------------------

_POOL_IMAGES = [_img(24, 20, "RGB", 100 + i) for i in range(5)]


def _pool() -> PerturbContext:
    opts = ("cyst", "tumour", "abscess")
    pool = (
        _variant((_POOL_IMAGES[0],), "q0", answer="cyst"),
        _variant((_POOL_IMAGES[1],), "q1", answer="tumour"),  # partner: same question and options
        _variant((_POOL_IMAGES[2],), "q2", answer="abscess"),  # partner
        _variant((_POOL_IMAGES[3],), "q3", question="Which side?", options=("left", "right"), answer="left"),
        _variant((_POOL_IMAGES[4],), "q4", question="What is shown?", options=tuple(reversed(opts)),
                 answer="cyst"),  # same question, same option set in another order
        _variant((), "q5", question="Text only?", options=("yes", "no"), answer="yes"),
    )
    return PerturbContext(pool=pool, images={"asset.png": _img(30, 30, "L", 7)})


IMAGE_OPS: list[tuple[str, st.SearchStrategy]] = [
    ("rotate", st.fixed_dictionaries({"angle": st.sampled_from([90, 180, 270, 33, -12.5])})),
    ("flip", st.fixed_dictionaries({"axis": st.sampled_from(["h", "v"])})),
    ("remove", st.just({})),
    ("swap", st.fixed_dictionaries({"prefer": st.sampled_from(["any", "same-question", "distractor"])})),
    ("dots", st.fixed_dictionaries({"placement": st.sampled_from(["uniform", "mask", "ultrasound"]),
                                    "radius": st.integers(2, 4),
                                    "permutation": st.integers(0, 5),
                                    "labels": st.booleans(),
                                    "target": st.sampled_from([None, "shallowest", "deepest", 1])})),
    ("marker", st.sampled_from([{"shape": "arrow", "arrow": [40, 40]}, {"shape": "box", "box": [5, 5, 50, 40]},
                                {"shape": "circle", "circle": [0.5, 0.5, 0.2], "relative": True}])),
    ("noise", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("blur", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("jpeg", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("contrast", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("brightness", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("crop", st.fixed_dictionaries({"severity": st.integers(1, 5)})),
    ("downscale", st.fixed_dictionaries({"severity": st.integers(1, 5),
                                         "resample": st.sampled_from(["nearest", "bilinear"])})),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**63 - 1))
def test_every_image_perturbation_is_pure_and_seeded(data: st.DataObject, seed: int) -> None:
    op, params_st = data.draw(st.sampled_from(IMAGE_OPS))
    params = data.draw(params_st)
    v = _variant((_smooth(96, 80, data.draw(st.sampled_from(["L", "RGB"]))),))
    ctx = _pool()
    a = apply(v, op, params, seed, ctx)
    b = apply(v, op, params, seed, ctx)
    assert a.id == b.id
    assert [im.png for im in a.images] == [im.png for im in b.images]
    assert a.provenance[-1]["op"] == op and a.provenance[-1]["seed"] == seed


@pytest.mark.parametrize("op,params", [
    ("noise", {}), ("dots", {"placement": "uniform"}), ("dots", {"placement": "mask"}),
    ("dots", {"placement": "ultrasound"}), ("swap", {"prefer": "any"}),
])
def test_different_seeds_differ_where_randomness_is_involved(op: str, params: dict) -> None:
    v = _variant((_smooth(),))
    results = {apply(v, op, params, seed, _pool()).id for seed in range(6)}
    assert len(results) > 1


def test_randomness_never_touches_global_state() -> None:
    v = _variant((_smooth(),))
    random.seed(5)
    np.random.seed(5)
    before = (random.random(), np.random.random())
    random.seed(5)
    np.random.seed(5)
    for op, params in [("noise", {}), ("dots", {}), ("dots", {"placement": "ultrasound"}), ("swap", {})]:
        apply(v, op, params, 3, _pool())
    assert (random.random(), np.random.random()) == before


# --- dots ----------------------------------------------------------------------------------------------------------


def _disc_offsets(r: int) -> list[tuple[int, int]]:
    k = max(1, r // 2)
    return [(0, 0), (k, 0), (-k, 0), (0, k), (0, -k), (k - 1, k - 1), (1 - k, 1 - k)]


def _check_dots(out: Variant, size: tuple[int, int]) -> dict:
    d = out.provenance[-1]["details"]
    a = _px(out)
    assert out.images[0].mode == "RGB" and a.shape[:2] == (size[1], size[0])
    r = d["radius"]
    for (x, y), name, rgb in zip(d["points"], d["colours"], d["rgb"]):
        assert tuple(rgb) == COLOURS[name]
        assert r <= x < size[0] - r and r <= y < size[1] - r, "the whole disc lies inside the image"
        for dx, dy in _disc_offsets(r):
            assert tuple(a[y + dy, x + dx]) == COLOURS[name], f"{name} dot at {(x, y)} is not exactly {rgb}"
    for p, q in itertools.combinations(d["points"], 2):
        assert math.dist(p, q) >= 2.5 * r, "dots overlap"
    return d


@FAST
@given(st.integers(0, 2**63 - 1), st.integers(40, 200), st.integers(40, 200), st.sampled_from(["L", "RGB"]))
def test_uniform_dots_are_where_the_provenance_says_in_exact_colours(seed: int, w: int, h: int, mode: str) -> None:
    v = _variant((_img(w, h, mode, seed % 1000),))
    out = apply(v, "dots", {"radius": 4}, seed)
    d = _check_dots(out, (w, h))
    assert d["colours"] == ["red", "green", "blue"] and len(d["points"]) == 3
    assert out.answer == v.answer and out.kind == v.kind  # no target: the item is unchanged


def test_default_radius_is_10px_per_512_and_the_histology_fraction() -> None:
    assert apply(_variant((_smooth(512, 384),)), "dots", {}, 0).provenance[-1]["details"]["radius"] == 10
    assert apply(_variant((_smooth(256, 256),)), "dots", {}, 0).provenance[-1]["details"]["radius"] == 5
    d = apply(_variant((_smooth(700, 350),)), "dots", {"radius_fraction": "1/70"}, 0).provenance[-1]["details"]
    assert d["radius"] == 10


def test_mask_placement_keeps_dots_on_the_foreground() -> None:
    a = np.zeros((120, 160), dtype=np.uint8)
    a[30:100, 60:150] = 200  # the only foreground
    img = Image.fromarray(a, mode="L")
    v = _variant((CanonicalImage.from_pil(img),))
    mask = foreground_mask(img)
    for seed in range(10):
        d = _check_dots(apply(v, "dots", {"placement": "mask", "radius": 4}, seed), (160, 120))
        for x, y in d["points"]:
            assert mask[y - 4:y + 5, x - 4:x + 5].all(), "the whole disc lies on the foreground"


def test_given_points_absolute_and_relative_and_outside_is_an_error() -> None:
    v = _variant((_smooth(100, 80),))
    out = apply(v, "dots", {"placement": "given", "points": [[10, 10], [50, 40], [90, 70]], "radius": 3,
                            "target": "deepest"}, 0)
    d = out.provenance[-1]["details"]
    assert d["points"] == [[10, 10], [50, 40], [90, 70]] and out.answer == "blue" and out.kind == "label"
    assert out.options == ("red", "green", "blue")
    assert out.question == "Which of the dots is at the greatest depth? (Answer with red, green, or blue)"
    rel = apply(v, "dots", {"placement": "given", "points": [[0.0, 0.0], [1.0, 1.0]], "relative": True,
                            "radius": 2, "colours": ["yellow", "cyan"], "target": 0}, 0)
    assert rel.provenance[-1]["details"]["points"] == [[0, 0], [99, 79]] and rel.answer == "yellow"
    assert "yellow or cyan" not in rel.question  # an index target keeps the item's own question
    with pytest.raises(PerturbationError, match="outside the 100x80 image"):
        apply(v, "dots", {"placement": "given", "points": [[10, 10], [150, 40], [90, 70]]}, 0)
    with pytest.raises(PerturbationError, match="needs an image"):
        apply(_variant(()), "dots", {}, 0)
    with pytest.raises(PerturbationError, match="permutation"):
        apply(v, "dots", {"permutation": 6}, 0)


def test_all_six_permutations_recolour_the_same_locations_and_the_answer_follows() -> None:
    v = _variant((_smooth(128, 128),))
    outs = [apply(v, "dots", {"target": "shallowest", "radius": 4, "permutation": p}, 42) for p in range(6)]
    details = [o.provenance[-1]["details"] for o in outs]
    assert all(d["points"] == details[0]["points"] for d in details)
    assignments = {tuple(d["colours"]) for d in details}
    assert len(assignments) == 6 and all(sorted(a) == ["blue", "green", "red"] for a in assignments)
    top = min(range(3), key=lambda i: details[0]["points"][i][1])
    for o, d in zip(outs, details):
        assert d["target_index"] == top and o.answer == d["colours"][top]
        _check_dots(o, (128, 128))
    assert {o.answer for o in outs} == {"red", "green", "blue"}
    assert [nth_permutation(3, i) for i in range(6)] == list(itertools.permutations(range(3)))


def test_ultrasound_rule_on_the_bundled_echo() -> None:
    img = Image.open(ASSETS / "us_echo_4chamber.png")
    img.load()
    cone = cone_mask(img)
    # burned-in text and the bottom toolbar are not part of the cone
    assert not cone[:, :60].any() and not cone[:, 250:].any() and not cone[215:, :].any()
    v = _variant((CanonicalImage.from_pil(img),), question="q")
    for seed in range(8):
        out = apply(v, "dots", {"placement": "ultrasound", "target": "shallowest"}, seed)
        d = _check_dots(out, img.size)
        bands = d["bands"]
        assert len(bands) == 3 and all(y0 < y1 for y0, y1 in bands)
        assert bands[0][0] == int(np.flatnonzero(cone.any(axis=1))[0])
        assert all(bands[i + 1][0] - bands[i][1] >= 10 for i in range(2)), "10-px gaps between the thirds"
        in_band = [[i for i, (y0, y1) in enumerate(bands) if y0 <= y < y1] for _, y in d["points"]]
        assert sorted(b for bs in in_band for b in bs) == [0, 1, 2], "exactly one dot in each band"
        for x, y in d["points"]:
            assert cone[y, x]
        top = next(i for i, bs in enumerate(in_band) if bs == [0])
        assert d["target_index"] == top and out.answer == d["colours"][top]
        assert out.question == ("Which of the dots is closest to the surface of the skin? "
                                "(Answer with red, green, or blue)")
    # the top dot is not always red: the location order does not encode depth
    answers = {apply(v, "dots", {"placement": "ultrasound", "target": "shallowest"}, s).answer for s in range(12)}
    assert len(answers) > 1


def _components_bfs(mask: np.ndarray) -> list[set[tuple[int, int]]]:
    seen: set[tuple[int, int]] = set()
    comps = []
    for y, x in zip(*np.nonzero(mask)):
        if (y, x) in seen:
            continue
        comp, stack = set(), [(int(y), int(x))]
        seen.add((int(y), int(x)))
        while stack:
            cy, cx = stack.pop()
            comp.add((cy, cx))
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    p = (cy + dy, cx + dx)
                    if 0 <= p[0] < mask.shape[0] and 0 <= p[1] < mask.shape[1] and mask[p] and p not in seen:
                        seen.add(p)
                        stack.append(p)
        comps.append(comp)
    return comps


@FAST
@given(st.integers(1, 24), st.integers(1, 24), st.floats(0.2, 0.7), st.integers(0, 2**16))
def test_largest_component_matches_a_flood_fill(h: int, w: int, p: float, seed: int) -> None:
    mask = np.random.default_rng(seed).random((h, w)) < p
    got = largest_component(mask)
    comps = _components_bfs(mask)
    if not comps:
        assert not got.any()
        return
    biggest = max(len(c) for c in comps)
    found = {(int(y), int(x)) for y, x in zip(*np.nonzero(got))}
    assert found in comps and len(found) == biggest


def test_noise_has_the_stated_sigma_and_no_bias() -> None:
    v = _variant((CanonicalImage.from_pil(Image.new("L", (256, 256), 128)),))
    for sev, sigma in zip(range(1, 6), (5, 10, 20, 35, 50)):
        d = _px(apply(v, "noise", {"severity": sev}, sev)).astype(float) - 128
        assert abs(d.std() - sigma) < 0.05 * sigma + 0.3 and abs(d.mean()) < 0.5


def test_dot_labels_do_not_change_the_dot_colours() -> None:
    v = _variant((_smooth(200, 160),))
    out = apply(v, "dots", {"labels": ["a", "b", "c"], "radius": 5}, 9)
    d = _check_dots(out, (200, 160))
    assert d["labels"] == ["a", "b", "c"]
    plain = apply(v, "dots", {"radius": 5}, 9)
    assert plain.provenance[-1]["details"]["points"] == d["points"] and plain.image_ids != out.image_ids


# --- swap and remove ----------------------------------------------------------------------------------------------


def test_swap_same_question_partner_gives_the_partners_answer() -> None:
    ctx = _pool()
    v = ctx.pool[0]
    for seed in range(10):
        out = apply(v, "swap", {"prefer": "same-question"}, seed, ctx)
        d = out.provenance[-1]["details"]
        partner = next(p for p in ctx.pool if p.item_id == d["item"])
        assert d["item"] in {"q1", "q2", "q4"} and out.answer == partner.answer
        assert out.image_ids == partner.image_ids and d["image_ids"] == list(partner.image_ids)
        assert out.options == v.options and out.question == v.question


def test_swap_distractor_picks_an_item_whose_answer_is_a_wrong_option() -> None:
    ctx = _pool()
    v = ctx.pool[0]
    for seed in range(10):
        out = apply(v, "swap", {"prefer": "distractor"}, seed, ctx)
        assert out.answer in set(v.options) - {v.answer}
        assert out.provenance[-1]["details"]["item"] in {"q1", "q2"}


def test_swap_any_to_an_unrelated_item_makes_the_answer_unknown() -> None:
    ctx = _pool()
    v = ctx.pool[0]
    out = apply(v, "swap", {"item": "q3"}, 0, ctx)
    assert out.answer is None and out.image_ids == ctx.pool[3].image_ids
    assert out.provenance[-1]["answer"] == ["cyst", None]
    assert apply(v, "swap", {"item": "q3", "answer": "keep"}, 0, ctx).answer == "cyst"
    picked = {apply(v, "swap", {"prefer": "any"}, s, ctx).provenance[-1]["details"]["item"] for s in range(30)}
    assert picked == {"q1", "q2", "q3", "q4"}  # never itself, never the text-only item
    img = apply(v, "swap", {"source": "image", "image": "asset.png"}, 0, ctx)
    assert img.answer is None and img.image_ids == (ctx.images["asset.png"].id,)
    assert img.provenance[-1]["details"] == {"item": None, "image": "asset.png",
                                             "image_ids": [ctx.images["asset.png"].id]}


def test_swap_without_a_candidate_is_a_clear_error() -> None:
    ctx = _pool()
    lone = ctx.pool[3]
    with pytest.raises(PerturbationError, match="no other item with the same question"):
        apply(lone, "swap", {"prefer": "same-question"}, 0, ctx)
    with pytest.raises(PerturbationError, match="whose answer is one of this item's wrong options"):
        apply(ctx.pool[4], "swap", {"prefer": "distractor"}, 0,
              PerturbContext(pool=(ctx.pool[0], ctx.pool[4])))  # the only partner has the same answer
    with pytest.raises(PerturbationError, match="no other item with an image"):
        apply(lone, "swap", {}, 0, PerturbContext(pool=(lone,)))
    with pytest.raises(PerturbationError, match="no item 'nope'"):
        apply(lone, "swap", {"item": "nope"}, 0, ctx)
    with pytest.raises(PerturbationError, match="no image named 'x.png'"):
        apply(lone, "swap", {"source": "image", "image": "x.png"}, 0, ctx)


def test_remove_sends_text_only_with_the_answer_unchanged() -> None:
    v = _variant((_smooth(),))
    out = apply(v, "remove", {}, 0)
    assert out.images == () and out.answer == v.answer and out.options == v.options
    with pytest.raises(PerturbationError, match="no image"):
        apply(out, "remove", {}, 0)


# --- markers and degradations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("params", [
    {"shape": "arrow", "arrow": [60, 50]},
    {"shape": "arrow", "arrow": [3, 3]},  # near the corner: the tail goes elsewhere
    {"shape": "arrow", "arrow": [0.5, 0.5], "tail": [0.9, 0.9], "relative": True},
    {"shape": "box", "box": [10, 10, 70, 60], "colour": "green"},
    {"shape": "circle", "circle": [48, 40, 20], "width": 2},
])
def test_markers_draw_in_their_colour_keep_the_size_and_the_answer(params: dict) -> None:
    v = _variant((_smooth(96, 80, "L"),))
    out = apply(v, "marker", params, 0)
    d = out.provenance[-1]["details"]
    a = _px(out)
    assert a.shape == (80, 96, 3) and out.answer == v.answer and out.question == v.question
    assert out.image_ids != v.image_ids
    rgb = COLOURS[params.get("colour", "red")]
    assert (a == rgb).all(axis=-1).sum() > 20
    if params["shape"] == "box":
        x0, y0, x1, y1 = d["box"]
        assert tuple(a[y0, x0]) == rgb and tuple(a[y1, (x0 + x1) // 2]) == rgb
    if params["shape"] == "arrow":
        x, y = d["arrow"]["tip"]
        assert tuple(a[y, x]) == rgb


def test_marker_errors() -> None:
    v = _variant((_smooth(96, 80),))
    with pytest.raises(PerturbationError, match="outside the 96x80 image"):
        apply(v, "marker", {"shape": "box", "box": [0, 0, 120, 50]}, 0)
    with pytest.raises(PerturbationError, match="needs `circle` coordinates"):
        apply(v, "marker", {"shape": "circle"}, 0)


DEGRADATIONS = ["noise", "blur", "jpeg", "contrast", "brightness", "crop", "downscale"]


@pytest.mark.parametrize("op", DEGRADATIONS)
@pytest.mark.parametrize("mode", ["L", "RGB"])
def test_degradations_change_pixels_keep_size_and_grow_with_severity(op: str, mode: str) -> None:
    v = _variant((_smooth(128, 96, mode),))
    base = _px(v).astype(float)
    diffs = []
    for sev in range(1, 6):
        out = apply(v, op, {"severity": sev}, 7)
        a = _px(out)
        assert a.shape == base.shape and out.images[0].mode == mode and out.answer == v.answer
        assert out.provenance[-1]["details"]["severity"] == sev
        diffs.append(float(np.abs(a - base).mean()))
    assert diffs[0] > 0
    assert all(x < y for x, y in zip(diffs, diffs[1:])), f"{op}: {diffs}"


def test_explicit_levels_override_severity_and_bad_severity_is_an_error() -> None:
    v = _variant((_smooth(),))
    d = apply(v, "contrast", {"factor": 1.5}, 0).provenance[-1]["details"]
    assert d["severity"] is None and d["factor"] == 1.5 and 0 <= d["mean"] <= 255
    assert apply(v, "jpeg", {"quality": 95}, 0).provenance[-1]["details"]["quality"] == 95
    small = apply(v, "crop", {"keep": 0.5, "resize": False}, 0)
    assert (small.images[0].width, small.images[0].height) == (48, 40)
    with pytest.raises(PerturbationError, match="parameter 'severity': must be a whole number between 1 and 5, not 6"):
        apply(v, "noise", {"severity": 6}, 0)
    with pytest.raises(PerturbationError, match="needs an image"):
        apply(_variant(()), "blur", {}, 0)


def test_noise_keeps_grey_rgb_grey() -> None:
    g = np.asarray(_smooth(64, 48, "L").pil())
    v = _variant((CanonicalImage.from_pil(Image.fromarray(np.stack([g] * 3, axis=-1), mode="RGB")),))
    a = _px(apply(v, "noise", {"severity": 5}, 1))
    assert np.array_equal(a[..., 0], a[..., 1]) and np.array_equal(a[..., 1], a[..., 2])


@pytest.mark.parametrize("mode,size", [("RGB", (300, 130)), ("L", (333, 401)), ("grey", (257, 300))])
def test_noise_is_one_image_sized_draw_whatever_the_bands(mode: str, size: tuple[int, int]) -> None:
    """The noise is added a band of rows at a time; the result is still that of one draw over the whole image
    (table[16-bit draws], clipped), so it does not depend on how the work is split."""
    w, h = size
    if mode == "grey":
        g = np.asarray(_img(w, h, "L", 5).pil())
        image = CanonicalImage.from_pil(Image.fromarray(np.stack([g] * 3, axis=-1), mode="RGB"))
    else:
        image = _img(w, h, mode, 5)
    v = _variant((image,))
    seed = 11
    out = _px(apply(v, "noise", {"severity": 4}, seed))
    a = _px(v).astype(int)
    plane = a[..., :1] if mode == "grey" else a  # a grey RGB image gets one noise field for all channels
    bits = np.random.PCG64(random.Random(seed).getrandbits(63))
    draws = bits.random_raw((plane.size + 3) // 4).astype("<u8").view("<u2")[:plane.size].reshape(plane.shape)
    table = np.rint(_normal_quantiles() * 35).astype(np.int16)
    assert np.array_equal(out, np.clip(a + table[draws], 0, 255))


@pytest.mark.parametrize("mode", ["L", "RGB"])
@pytest.mark.parametrize("radius", [0.3, 1.5, 2.5, 6, 12])
def test_blur_matches_pillows_gaussian_blur(mode: str, radius: float) -> None:
    """Small radii use Pillow's three-box kernel at full size, larger ones a reduced copy: both stay close to
    Pillow's ``GaussianBlur`` of the same radius."""
    img = _smooth(256, 192, mode)
    ours = _px(apply(_variant((img,)), "blur", {"radius": radius}, 0)).astype(int)
    ref = np.asarray(img.pil().filter(ImageFilter.GaussianBlur(radius))).astype(int)
    assert np.abs(ours - ref).mean() < 1.0
    if radius < 1:
        assert (ours != np.asarray(img.pil())).any(), "even a sub-pixel radius changes an edge"


@pytest.mark.parametrize("mode", ["L", "RGB"])
@pytest.mark.parametrize("angle,fill", [(33, "black"), (-12.5, "white"), (200.7, "black")])
def test_arbitrary_rotation_expands_like_pillow(mode: str, angle: float, fill: str) -> None:
    img = _smooth(256, 192, mode)
    out = apply(_variant((img,)), "rotate", {"angle": angle, "fill": fill}, 0)
    c = 0 if fill == "black" else 255
    ref = img.pil().rotate(angle, resample=Image.Resampling.BICUBIC, expand=True,
                           fillcolor=c if mode == "L" else (c, c, c))
    assert out.images[0].mode == mode and (out.images[0].width, out.images[0].height) == ref.size
    a = _px(out)
    assert (a[0, 0] == c).all() and (a[-1, -1] == c).all(), "uncovered corners take the fill"
    assert np.abs(a.astype(int) - np.asarray(ref).astype(int)).mean() < 1.5  # bilinear vs Pillow's bicubic


# --- provenance ------------------------------------------------------------------------------------------------


def test_a_chain_of_image_perturbations_replays_to_the_same_variant() -> None:
    ctx = _pool()
    base = ctx.pool[0]
    v = base
    for i, (op, params) in enumerate([("swap", {"prefer": "same-question"}), ("rotate", {"angle": 90}),
                                      ("dots", {"placement": "uniform", "target": "shallowest", "radius": 2,
                                                "permutation": 3}),
                                      ("marker", {"shape": "box", "box": [1, 1, 15, 15]}),
                                      ("noise", {"severity": 2}), ("jpeg", {"severity": 4})]):
        v = apply(v, op, params, seed=1000 + i, ctx=ctx)
    assert len(v.provenance) == 6 and all("details" in rec for rec in v.provenance[:-2] if rec["op"] != "rotate")
    again = replay(base, v.provenance, ctx)
    assert again.id == v.id and again.image_ids == v.image_ids and again.answer == v.answer
