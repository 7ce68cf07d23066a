"""The interactive figures of the Results and Stress tabs (probe_ui.views.plots), without the UI."""

from __future__ import annotations

import pandas as pd
import pytest

from probe_ui.conditions import family
from probe_ui.metrics.base import wilson_ci
from probe_ui.views import plots

MODELS = ["model-a", "model-b"]


def condition_table(n_conditions: int = 55, same: bool = False) -> pd.DataFrame:
    """accuracy_by_condition's table: ``n_conditions`` conditions over several families, two models (the same
    figures for both when ``same``)."""
    fams = ["rotate(angle={k})", "severity/blur-{k}", "illusion/{k}R", "shuffle(seed={k})", "nota(mode=m{k})"]
    conds = ["original"] + [fams[k % len(fams)].format(k=k) for k in range(n_conditions - 1)]
    rows = []
    for m, model in enumerate(MODELS):
        for k, c in enumerate(conds):
            n = 20 + k
            right = (k * 7 + (0 if same else m * 3)) % (n + 1)
            lo, hi = wilson_ci(right, n)
            rows.append({"model": model, "condition": c, "what was done": f"{c} in words", "n": n, "correct": right,
                         "accuracy": 100.0 * right / n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def test_hover_of_every_point_shows_its_n_and_ci() -> None:
    t = condition_table(12)
    fig = plots.accuracy_by_condition(t)
    assert [tr.name for tr in fig.data] == MODELS
    for tr in fig.data:
        assert "n = %{customdata[4]}" in tr.hovertemplate and "95 % CI %{customdata[2]" in tr.hovertemplate
        mine = t[t["model"] == tr.name].set_index("what was done")
        for words, acc, lo, hi, n, right in tr.customdata:
            row = mine.loc[words]
            assert (n, right) == (row["n"], row["correct"])
            assert (acc, lo, hi) == pytest.approx((row["accuracy"], row["ci_low"], row["ci_high"]))
        # the error bar is the CI itself
        assert [e + x for e, x in zip(tr.error_x.array, tr.x)] == pytest.approx([c[3] for c in tr.customdata])


def test_fifty_five_conditions_stay_readable() -> None:
    """One row per condition (horizontal: labels at full size, never rotated), as tall as the rows need,
    grouped under their perturbation family, the original on top."""
    t = condition_table(55)
    fig = plots.accuracy_by_condition(t)
    assert fig.layout.height >= 55 * plots.ROW_PX
    assert fig.layout.yaxis.type == "multicategory"
    assert fig.layout.font.size >= 12
    fam, words = fig.data[0].y
    assert len(words) == 55 and words[0] == "original in words" and fam[0] == "original"
    assert list(fam[1:]) == sorted(fam[1:])  # a family's conditions together
    assert {family(c) for c in t["condition"]} == set(fam)
    assert "rotation" in fam and "blur" in fam  # families in words, not code names


def test_worst_first_puts_the_lowest_mean_accuracy_on_top() -> None:
    t = condition_table(20)
    fig = plots.accuracy_by_condition(t, sort="worst")
    words = list(fig.data[0].y)
    mean = t.groupby("what was done")["accuracy"].mean()
    rest = [w for w in words if w != "original in words"]
    assert words[0] == "original in words"
    assert [mean[w] for w in rest] == sorted(mean[w] for w in rest)
    with pytest.raises(ValueError, match="unknown order"):
        plots.accuracy_by_condition(t, sort="alphabet")


def test_models_with_the_same_scores_stay_apart() -> None:
    """Two models with equal accuracies: markers side by side in a row (grouped), different shapes."""
    fig = plots.accuracy_by_condition(condition_table(8, same=True))
    a, b = fig.data
    assert list(a.x) == list(b.x)
    assert fig.layout.scattermode == "group" and a.offsetgroup != b.offsetgroup
    assert a.orientation == b.orientation == "h"  # grouped along the rows (the category axis is y)
    assert a.marker.symbol != b.marker.symbol


def curves(same: bool = True) -> pd.DataFrame:
    rows = []
    for m, model in enumerate(MODELS):
        for p in ("blur", "rotate"):
            for lv in ([0, 1, 2, 3] if p == "blur" else [0, 90, 180]):
                acc = 80.0 - 10 * (lv if p == "blur" else lv // 90) - (0 if same else m * 5)
                rows.append({"run": "r", "model": model, "perturbation": p, "level": lv, "accuracy": acc,
                             "ci_low": acc - 9, "ci_high": acc + 8, "n": 30, "correct": round(acc * 0.3),
                             "answer_flip_rate": None})
    return pd.DataFrame(rows)


def test_equal_curves_are_offset_and_drawn_differently() -> None:
    fig = plots.robustness_curve(curves(same=True), "blur")
    a, b = fig.data
    assert list(a.y) == list(b.y)  # the same accuracies ...
    assert all(xa != xb for xa, xb in zip(a.x, b.x))  # ... not on top of each other
    assert all(abs(xa - xb) < 0.2 for xa, xb in zip(a.x, b.x))  # ... but at their level
    assert a.line.dash != b.line.dash and a.marker.symbol != b.marker.symbol
    assert "n = %{customdata[4]}" in a.hovertemplate and "CI" in a.hovertemplate
    assert list(fig.layout.xaxis.ticktext) == ["original", "1", "2", "3"]


def test_every_perturbation_gets_a_panel_and_a_model_keeps_its_look() -> None:
    fig = plots.robustness_curves(curves(same=False))
    assert len(fig.data) == 4 and fig.layout.xaxis2 is not None
    looks = {}
    for tr in fig.data:
        looks.setdefault(tr.name, set()).add((tr.line.color, tr.line.dash, tr.marker.symbol))
    assert all(len(v) == 1 for v in looks.values()) and len(looks) == 2
    assert sum(bool(tr.showlegend) for tr in fig.data) == 2  # one legend entry per model
    assert list(fig.layout.xaxis2.ticktext) == ["original", "90°", "180°"]


def test_empty_tables_say_why() -> None:
    fig = plots.accuracy_by_condition(pd.DataFrame(columns=["model", "condition"]))
    assert fig.layout.annotations[0].text == "no answers" and not fig.data
    assert plots.robustness_curve(curves(), "noise").layout.annotations[0].text == "no answers for noise yet"


def test_names_from_models_are_shown_as_text() -> None:
    t = condition_table(3)
    t["model"] = t["model"].replace({"model-a": "<img src=x onerror=alert(1)>%{x}"})
    fig = plots.accuracy_by_condition(t)
    tmpl = " ".join(tr.hovertemplate for tr in fig.data)
    assert "<img" not in tmpl and "&lt;img" in tmpl and "%{x}" not in tmpl.replace("%{x:", "")


def test_category_heatmap_cells_and_hover_carry_n() -> None:
    acc = pd.DataFrame({"model-a": [50.0, None], "model-b": [100.0, 25.0]}, index=["Chest", "Head"])
    n = pd.DataFrame({"model-a": [4, None], "model-b": [2, 8]}, index=["Chest", "Head"])
    fig = plots.category_heatmap(acc, n)
    hm = fig.data[0]
    assert hm.text[0][0] == "50 %<br>n=4" and hm.text[1][0] == "–" and hm.text[1][1] == "25 %<br>n=8"
    assert "n = %{customdata}" in hm.hovertemplate


@pytest.mark.parametrize("n", range(1, 13))
def test_confusion_panels_for_one_to_twelve_models_pass_plotlys_validation(n) -> None:
    """Issue 51, U29: four models or more made a grid whose last row started at -5.55e-17, which Plotly refuses
    (the whole Results tab showed "Error"). Every axis domain lies within [0, 1]."""
    import plotly.graph_objects as go

    t = pd.DataFrame([[1, 2], [3, 4]], index=["A", "B"], columns=["A", "B"])
    fig = plots.confusion({f"m{i}": t for i in range(n)})
    go.Figure(fig.to_dict())  # validation on
    domains = [v["domain"] for k, v in fig.to_dict()["layout"].items() if k[1:5] == "axis"]
    assert len(domains) >= 2 * n and all(0 <= a < b <= 1 for a, b in domains)


@pytest.mark.parametrize("n", [4, 7, 12])
def test_confusion_rows_keep_room_for_their_labels_and_the_next_models_name(n) -> None:
    """From four models on, the rows were a fraction of the figure apart: a panel's axis title ran into the next
    row's model name. Every gap between rows is at least 100 px, and every panel at least 200 px tall."""
    t = pd.DataFrame([[1, 2], [3, 4]], index=["A", "B"], columns=["A", "B"])
    fig = plots.confusion({f"m{i}": t for i in range(n)})
    px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    rows = sorted({tuple(v["domain"]) for k, v in fig.to_dict()["layout"].items() if k.startswith("yaxis")},
                  reverse=True)
    assert all((a - b) * px >= 200 for b, a in rows)
    assert all((low - high) * px >= 100 for (low, _), (_, high) in zip(rows, rows[1:]))
