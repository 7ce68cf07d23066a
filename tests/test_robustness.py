"""The severity suite and its robustness curves: conditions, curves and breaking points on answers known by
construction (a table built by hand, and a batch against a loopback server whose answer follows the image's
brightness), the figures, the report's section and its comparison with a baseline run, and the sweep plan."""

from __future__ import annotations

import base64
import io
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset
from PIL import Image

from probe_ui.images import load_image
from probe_ui.items import Item, original_variant
from probe_ui.metrics import paper_metrics
from probe_ui.metrics.base import wilson_ci
from probe_ui.metrics.robustness import auc, breaking_frame, breaking_summary, breaking_variant, curve_frame, curves
from probe_ui.presets import load_preset
from probe_ui.presets.suites import (
    SUITES,
    SuiteError,
    default_levels,
    expand,
    parse_severity_condition,
    severity_condition,
    sweep_conditions,
    sweep_perturbations,
)
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.runner.sweep import image_tokens, plan_preset_sweep, plan_sweep
from probe_ui.scoring import score_run, scored_answers
from probe_ui.stats import newcombe_interval
from probe_ui.store import Store
from probe_ui.views import results as R
from probe_ui.views.deltas import robustness_baseline_deltas
from probe_ui.views.report import build_report

# ---- the suite ----------------------------------------------------------------------------------------------------


def test_severity_suite_sweeps_every_degradation_and_rotation_of_an_item_with_an_image(tmp_path: Path) -> None:
    write_png(tmp_path / "a.png")
    items = [choice_item(0, "a.png"),
             {"id": "orient", "image": "a.png", "question": "Is this image in its correct orientation or upside down?",
              "labels": ["correct", "upside down"], "answer": "correct"},
             {"id": "text", "question": "Which organ filters blood?", "options": ["kidney", "lung"], "answer": "A"}]
    ex = expand(load_preset(write_preset(tmp_path / "p.yaml", items)), seed=0, suites=["severity"])
    assert not ex.errors
    by_item: dict[str, list[str]] = {}
    for v in ex.variants:
        by_item.setdefault(v.item_id, []).append(v.condition)
    built_in = ["noise", "blur", "jpeg", "contrast", "brightness", "crop", "downscale", "rotate"]
    assert [p for p in sweep_perturbations() if p in built_in] == built_in  # each declares its sweep, in this order
    assert default_levels("blur") == (1, 2, 3, 4, 5) and default_levels("rotate") == (15, 30, 45, 90, 180)
    expected = ["original"] + [f"severity/{p}-{lv}" for p in sweep_perturbations() for lv in default_levels(p)]
    assert by_item["q0"] == expected
    assert by_item["orient"] == [c for c in expected if "rotate" not in c]  # rotating would move its answer
    assert by_item["text"] == ["original"]  # nothing to degrade
    q0 = [v for v in ex.variants if v.item_id == "q0"]
    assert {v.answer for v in q0} == {"finding 0-0"}  # answers unchanged
    assert len({v.image_ids for v in q0}) == len(q0)  # every level is a different image
    assert SUITES["severity"].metrics == ("robustness_curves",)


def test_sweep_conditions_are_named_for_the_metric_and_checked() -> None:
    assert [c.name for c in sweep_conditions("blur", [3, 1])] == ["severity/blur-1", "severity/blur-3"]
    assert sweep_conditions("rotate")[2].steps == (("rotate", {"angle": 45}),)
    assert severity_condition("jpeg", 5).steps == (("jpeg", {"severity": 5}),)
    assert parse_severity_condition("severity/rotate-45") == ("rotate", 45)
    assert parse_severity_condition("severity/sharpen-2") is None
    assert parse_severity_condition("rotations/rot90") is None
    with pytest.raises(SuiteError, match="blur: level must be a whole number 1..5, not 6"):
        severity_condition("blur", 6)
    with pytest.raises(SuiteError, match="unknown sweep perturbation 'sharpen'"):
        sweep_conditions("sharpen")


# ---- curves on a table built by hand ------------------------------------------------------------------------------

def row(item: str, cond: str, parsed: str | None, answer: str = "A", model: str = "m") -> dict[str, Any]:
    opts = ["yes finding", "no finding", "other"]
    return {"model": model, "prompt": "mediconfusion-mc", "sample": 0, "variant_id": f"{item}|{cond}",
            "parsed": parsed, "invalid": parsed is None, "refusal": False,
            "correct": None if answer is None else parsed == answer, "error": None, "item_id": item,
            "source": "p.yaml", "condition": cond, "group_id": item, "item_group": None, "kind": "choice",
            "answer_label": answer, "n_labels": 3, "question": "q?", "options": opts,
            "answer": None if answer is None else opts["ABC".index(answer)], "category": [], "tags": [],
            "attributes": {}, "prompt_args": None}


def hand_table() -> pd.DataFrame:
    """Three items (answer A) swept by blur 1-3: i1 right until blur-3 (B), i2 wrong from the start and unchanged
    (B), i3 unreadable at blur-2 then back to A; and one rotation level for i1 only."""
    rows = [row("i1", "original", "A"), row("i1", "severity/blur-1", "A"), row("i1", "severity/blur-2", "A"),
            row("i1", "severity/blur-3", "B"),
            row("i2", "original", "B"), row("i2", "severity/blur-1", "B"), row("i2", "severity/blur-2", "B"),
            row("i2", "severity/blur-3", "B"),
            row("i3", "original", "A"), row("i3", "severity/blur-1", "A"), row("i3", "severity/blur-2", None),
            row("i3", "severity/blur-3", "A"),
            row("i1", "severity/rotate-45", "C"),
            row("other", "original", "A"), row("other", "illusion/no-image", "B")]  # not swept
    return pd.DataFrame(rows)


def test_curves_accuracy_ci_flip_rate_auc_and_breaking_points_by_hand() -> None:
    block = curves(hand_table())
    assert list(block) == ["blur", "rotate"]
    blur = block["blur"]
    # level: right of 3 (original: i1, i3 right; blur-1 the same; blur-2: i1 right, i3 invalid; blur-3: i3 right)
    right = {0: 2, 1: 2, 2: 1, 3: 1}
    for lv in blur["levels"]:
        k = right[lv["severity"]]
        assert (lv["n"], lv["accuracy"]) == (3, round(100 * k / 3, 4))
        assert (lv["ci_low"], lv["ci_high"]) == wilson_ci(k, 3)
    # answers differing from the item's original: none at 1; i3 (unreadable) at 2; i1 (A→B) at 3
    assert [lv["answer_flip_rate"] for lv in blur["levels"]] == [None, 0.0, round(100 / 3, 4), round(100 / 3, 4)]
    a = [200 / 3, 200 / 3, 100 / 3, 100 / 3]  # accuracies at ranks 0..3
    expected = sum((a[i] + a[i + 1]) / 2 for i in range(3)) / 3
    assert blur["auc"] == round(expected, 4)
    assert blur["auc_relative"] == round(100 * expected / a[0], 4)
    bp = blur["breaking_point"]
    assert bp["per_item"] == [{"item_id": "i1", "level": 3, "unit": 0}, {"item_id": "i2", "level": None, "unit": 1},
                              {"item_id": "i3", "level": 2, "unit": 2}]  # each item its own unit of evidence
    assert (bp["median"], bp["broken"], bp["items"]) == (2.5, 2, 3)
    assert (bp["never_broken"]["numerator"], bp["never_broken"]["denominator"]) == (1, 3)
    rot = block["rotate"]  # only i1 was rotated: its original and one level
    assert [(lv["severity"], lv["n"], lv["answer_flip_rate"]) for lv in rot["levels"]] == [(0, 1, None), (45, 1, 100.0)]
    assert rot["auc"] == 50.0 and rot["breaking_point"]["per_item"] == [{"item_id": "i1", "level": 45, "unit": 0}]


def test_auc_is_rank_spaced_bridges_missing_levels_and_needs_two_points() -> None:
    lv = lambda s, a: {"severity": s, "accuracy": a}  # noqa: E731
    assert auc([lv(0, 80.0), lv(15, 80.0), lv(180, 80.0)]) == (80.0, 100.0)  # a flat curve scores its level
    # ranks 0, 1, 2: the angle values themselves do not stretch the axis
    assert auc([lv(0, 100.0), lv(15, 50.0), lv(180, 0.0)]) == (50.0, 50.0)
    # a level without scored answers (None) is bridged by a straight line over its rank
    assert auc([lv(0, 100.0), lv(1, None), lv(2, 0.0)]) == (50.0, 50.0)
    assert auc([lv(0, 100.0)]) == (None, None)
    assert auc([lv(0, 0.0), lv(1, 50.0)])[1] is None  # nothing to be relative to


def test_family_is_registered_detected_and_has_headlines() -> None:
    from probe_ui.metrics import headlines

    paper = paper_metrics(hand_table())
    assert "robustness_curves" in paper["detected"]
    heads = headlines(paper)["robustness_curves"]
    assert heads["AUC blur"] == paper["robustness_curves"]["blur"]["auc"]
    # items never broken under any perturbation: only i2 (i1 broke under both, i3 under blur)
    assert (heads["never broken"]["numerator"], heads["never broken"]["denominator"]) == (1, 3)
    assert "robustness_curves" not in paper_metrics(hand_table().iloc[-2:])["detected"]


def test_frames_carry_the_json_numbers() -> None:
    df = pd.concat([hand_table(), hand_table().assign(model="n", parsed="A", correct=True, invalid=False)])
    t = curve_frame(df)
    assert list(t.columns) == ["run", "model", "perturbation", "level", "accuracy", "ci_low", "ci_high", "n",
                               "correct", "answer_flip_rate"]
    m = t[(t["model"] == "m") & (t["perturbation"] == "blur")]
    assert m["accuracy"].tolist() == [lv["accuracy"] for lv in curves(hand_table())["blur"]["levels"]]
    assert m["correct"].tolist() == [2, 2, 1, 1]
    n = t[(t["model"] == "n") & (t["perturbation"] == "blur")]
    assert n["accuracy"].tolist() == [100.0] * 4 and n["answer_flip_rate"].fillna(0).tolist() == [0.0] * 4
    b = breaking_frame(df)
    assert b[(b["model"] == "m") & (b["item_id"] == "i1")]["condition"].tolist() == ["severity/blur-3",
                                                                                       "severity/rotate-45"]
    s = breaking_summary(df).set_index(["model", "perturbation"])
    assert s.loc[("m", "blur"), "median_breaking_point"] == 2.5
    assert s.loc[("n", "blur"), "never_broken"] == 100.0 and s.loc[("n", "blur"), "broken"] == 0


# ---- a sweep answered by a loopback server whose answer follows the brightness ------------------------------------

THRESHOLD = 0.4 * 127.5  # brightness severities keep 0.8, 0.6, 0.45 of the mean (A), then 0.3, 0.15 (B)


def by_brightness(body: dict[str, Any]) -> str:
    """Answer A when the image's mean grey level is above the threshold, else B."""
    for m in body["messages"]:
        for part in m["content"] if isinstance(m["content"], list) else []:
            if part.get("type") == "image_url":
                data = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                mean = float(np.asarray(Image.open(io.BytesIO(data)).convert("L"), dtype=float).mean())
                return "A" if mean >= THRESHOLD else "B"
    return "A"


@pytest.fixture
def swept(tmp_path: Path, fake_openai: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, str]:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai.responder = by_brightness
    for i in range(3):
        write_png(tmp_path / f"img{i}.png", seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(0, "img0.png"), choice_item(1, "img1.png"),
                                                choice_item(2, "img2.png", answer="B")])
    store = Store(tmp_path / "probe-ui.db")
    res = run_batch(store, [load_preset(preset)], ["baseline/first", "openai/bright"],
                    BatchOptions(run_name="sweep", suites=["severity"], progress=False))
    assert res.errors == 0 and res.answered == 3 * 41 * 2
    return store, "sweep"


def test_sweep_through_the_store_scores_the_known_curve(swept: tuple[Store, str]) -> None:
    store, run = swept
    report = score_run(store, run)
    block = report["models"]["openai/bright"]["paper"]["robustness_curves"]
    bright = block["brightness"]
    # originals and severities 1-3 answer A (q0, q1 right, q2 wrong); 4 and 5 answer B (q2 right)
    assert [lv["accuracy"] for lv in bright["levels"]] == [round(200 / 3, 4)] * 4 + [round(100 / 3, 4)] * 2
    assert [lv["answer_flip_rate"] for lv in bright["levels"]] == [None, 0.0, 0.0, 0.0, 100.0, 100.0]
    assert [lv["n"] for lv in bright["levels"]] == [3] * 6
    assert bright["auc"] == round((3 * 200 / 3 + (200 / 3 + 100 / 3) / 2 + 100 / 3) / 5, 4)
    assert bright["breaking_point"]["median"] == 4.0 and bright["breaking_point"]["broken"] == 3
    for p in ("noise", "blur", "jpeg", "contrast", "crop", "downscale", "rotate"):  # the mean grey level stays
        assert block[p]["breaking_point"]["broken"] == 0, p
    first = report["models"]["baseline/first"]["paper"]["robustness_curves"]
    assert all(b["auc"] == round(200 / 3, 4) and b["breaking_point"]["broken"] == 0 for k, b in first.items()
               if k != "definition")
    assert json.loads(json.dumps(report)) == report  # plain JSON

    df = scored_answers(store, run)
    hit = breaking_variant(df, "openai/bright", "q1", "brightness")
    assert hit is not None and hit["level"] == 4
    assert hit["broken"]["condition"] == "severity/brightness-4" and hit["broken"]["parsed"] == "B"
    assert hit["original"]["parsed"] == "A" and hit["original"]["image_ids"] != hit["broken"]["image_ids"]
    sent = store.get_response(hit["broken"]["response_id"])
    assert sent["condition"] == "severity/brightness-4" and sent["model"] == "openai/bright"
    never = breaking_variant(df, "baseline/first", "q1", "brightness")
    assert never is not None and never["level"] is None and never["broken"] is None
    assert breaking_variant(df, "openai/bright", "nope", "brightness") is None


@pytest.mark.slow
def test_curve_figures_and_the_report_section(swept: tuple[Store, str]) -> None:
    from matplotlib.figure import Figure

    store, run = swept
    df = scored_answers(store, run)
    figs = R.robustness_figures(df)
    assert list(figs) == ["noise", "blur", "jpeg", "contrast", "brightness", "crop", "downscale", "rotate"]
    ax = figs["rotate"].axes[0]
    assert isinstance(figs["rotate"], Figure) and len(ax.get_lines()) == 2  # one line per model
    assert [t.get_text() for t in ax.get_xticklabels()] == ["original", "15°", "30°", "45°", "90°", "180°"]
    partial = R.robustness_curves(df[~df["condition"].isin(["severity/blur-4", "severity/blur-5"])])
    assert len(R.plot_robustness_curve(partial, "blur").axes[0].get_lines()[0].get_xdata()) == 4  # while filling
    table = R.breaking_points_table(df)
    row_ = table[(table["model"] == "openai/bright") & (table["perturbation"] == "brightness")].iloc[0]
    assert row_["median breaking level"] == 4.0 and row_["never broken %"] == 0.0

    html = build_report(store, run)
    assert '<section id="robustness">' in html
    assert html.count('class="curve"') == 8 and "data:image/png;base64," in html
    assert 'data-model="openai/bright" data-perturbation="brightness"' in html


@pytest.mark.slow
def test_report_compares_the_sweep_with_a_baseline_run(swept: tuple[Store, str], tmp_path: Path) -> None:
    store, run = swept
    preset = load_preset(tmp_path / "p.yaml")
    run_batch(store, [preset], ["baseline/first", "baseline/last"],
              BatchOptions(run_name="base", suites=["severity"], progress=False))
    a, b = R.robustness_curves(scored_answers(store, run)), R.robustness_curves(scored_answers(store, "base"))
    d = robustness_baseline_deltas(a, b)
    assert set(d["model"]) == {"baseline/first"}  # the models answered in both runs
    assert d["delta"].abs().max() == 0.0  # the same model, the same answers
    # hand check of one cell against Newcombe on the counts
    a2 = a[a["model"] == "openai/bright"].assign(model="x")
    b2 = b[b["model"] == "baseline/last"].assign(model="x")
    one = robustness_baseline_deltas(a2[a2["perturbation"] == "blur"], b2).set_index(["perturbation", "level"])
    ra, rb = a2[(a2["perturbation"] == "blur") & (a2["level"] == 2)].iloc[0], \
        b2[(b2["perturbation"] == "blur") & (b2["level"] == 2)].iloc[0]
    exp = newcombe_interval(ra["correct"], ra["n"], rb["correct"], rb["n"])
    got = one.loc[("blur", 2)]
    assert got["condition"] == "blur 2" and math.isclose(got["delta"], exp[0])
    assert math.isclose(got["ci_low"], exp[1]) and math.isclose(got["ci_high"], exp[2])
    html = build_report(store, run, baseline="base")
    assert "sweep-vs-base" in html and 'data-condition="rotate 45°"' in html


def test_report_has_no_robustness_section_without_a_sweep(tmp_path: Path) -> None:
    write_png(tmp_path / "a.png")
    store = Store(tmp_path / "probe-ui.db")
    run_batch(store, [load_preset(write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")]))], ["baseline/first"],
              BatchOptions(run_name="plain", suites=["rotations"], progress=False))
    assert R.robustness_curves(scored_answers(store, "plain")).empty
    assert 'id="robustness"' not in build_report(store, "plain")


# ---- the plan before a sweep --------------------------------------------------------------------------------------

def test_image_tokens_follow_the_documented_rules() -> None:
    assert image_tokens(512, 512, "openai") == 85 + 170  # one tile
    assert image_tokens(1024, 1024, "openai") == 85 + 170 * 4  # shortest side to 768: 2 x 2 tiles
    assert image_tokens(4096, 1024, "vllm") == 85 + 170 * 4 * 1  # fit in 2048: 2048 x 512
    assert image_tokens(1000, 750, "anthropic") == 1000


def test_plan_counts_items_conditions_models_and_prices_what_the_catalogue_prices(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-plan")  # a model that cannot run here is not priced
    write_png(tmp_path / "a.png", size=(512, 512))
    write_png(tmp_path / "b.png", size=(512, 512))
    items = [choice_item(0, "a.png"), choice_item(1, "b.png"),
             {"id": "text", "question": "Which organ filters blood?", "options": ["kidney", "lung"], "answer": "A"}]
    preset = load_preset(write_preset(tmp_path / "p.yaml", items))
    plan = plan_preset_sweep(preset, ["baseline/random", "gpt-4o", "openai/unpriced"], suites=["severity"])
    assert (plan.items, plan.variants, plan.models) == (3, 41 + 41 + 1, 3)
    assert plan.calls == 83 * 3 == len(expand(preset, 0, ["severity"]).variants) * 3
    est = {e.model: e for e in plan.per_model}
    assert est["baseline/random"].cost_usd == 0.0 and est["openai/unpriced"].cost_usd is None
    g = est["gpt-4o"]
    assert g.output_tokens == 83 * 32  # max_tokens of the MediConfusion template, per call
    assert g.input_tokens > 82 * 255  # at least one 512-px tile per call with an image
    assert g.cost_usd == round((g.input_tokens * 2.50 + g.output_tokens * 10.00) / 1e6, 6)
    assert plan.cost_usd == g.cost_usd and plan.unpriced == ["openai/unpriced"]
    assert "249 calls" in plan.text() and "no price known for openai/unpriced" in plan.text()

    base = original_variant(Item(id="x", question="q?", kind="choice", options=("a", "b"), answer="a"),
                            (load_image(tmp_path / "a.png").image,))
    one = plan_sweep([base], ["baseline/first"], conditions=sweep_conditions("blur", [2, 3, 4]), samples=2)
    assert (one.variants, one.calls) == (4, 8)  # the original and three levels, two samples each
