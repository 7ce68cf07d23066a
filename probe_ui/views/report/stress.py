"""The report's comparisons: each condition against the originals (stress), a baseline run, the paired
comparison and the robustness curves."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from probe_ui.views.deltas import (
    ORIGINAL,
    answer_counts,
    baseline_deltas,
    robustness_baseline_deltas,
    stress_deltas,
)
from probe_ui.views.markup import data_num, el, esc, grid_table, num, para, titled_section, wrap
from probe_ui.views.report.common import CI_METHOD, MATRIX_ROW_LIMIT, figure_html, frame_table
from probe_ui.views.report.overview import glossary
from probe_ui.views.results import condition_order

if TYPE_CHECKING:  # pragma: no cover
    from probe_ui.store import Run, Store


def _delta_cell(r: dict[str, Any], ref_label: str) -> str:
    if not math.isfinite(r["delta"]):
        return '<td class="num muted">–</td>'
    cls = "neg" if r["ci_high"] < 0 else "pos" if r["ci_low"] > 0 else "ns"
    tip = (f"{num(r['accuracy'], 1)} % ({r['correct']}/{r['n']}) vs {ref_label} {num(r['accuracy_ref'], 1)} % "
           f"({r['correct_ref']}/{r['n_ref']}); 95 % CI {num(r['ci_low'], 1)} to {num(r['ci_high'], 1)} pp")
    inner = (el("span", num(r["delta"], 1, signed=True), class_="delta")
             + el("span", f"[{num(r['ci_low'], 1, signed=True)}, {num(r['ci_high'], 1, signed=True)}]",
                   class_="ci")
             + el("span", f"{num(r['accuracy'], 1)} vs {num(r['accuracy_ref'], 1)} · n {r['n']}/{r['n_ref']}",
                   class_="sub"))
    return wrap("td", inner, class_=f"num dcell {cls}", title=tip, data_model=r["model"],
                 data_condition=r["condition"], data_delta=data_num(r["delta"]), data_ci_low=data_num(r["ci_low"]),
                 data_ci_high=data_num(r["ci_high"]))


def _delta_table(d: pd.DataFrame, conds: list[str], label: dict[str, str], ref_label: str, cls: str) -> str:
    models = list(dict.fromkeys(d["model"]))
    by = {(r["model"], r["condition"]): {str(k): v for k, v in r.items()} for r in d.to_dict("records")}
    rows = []
    for c in conds:
        cells = [el("th", label.get(c, c), scope="row")]
        for m in models:
            r = by.get((m, c))
            cells.append(_delta_cell(r, ref_label) if r else '<td class="num muted">–</td>')
        rows.append(wrap("tr", "".join(cells)))
    return grid_table(["condition"] + models, rows, f"grid deltas {cls}")


_DELTA_LEGEND = ('<p class="legend"><span class="swatch neg"></span>95 % CI below 0 '
                 '<span class="swatch pos"></span>above 0 <span class="swatch ns"></span>includes 0</p>')


def stress_section(raw: pd.DataFrame, voted: pd.DataFrame) -> str:
    from probe_ui.views import results as R
    from probe_ui.views import stress

    d = stress_deltas(voted)
    parts = []
    if d.empty:
        parts.append(para("No perturbed variants with scored originals in this run: there is nothing to compare."))
    else:
        acc = answer_counts(voted)
        conds = [c for c in condition_order(d["condition"]) if c != ORIGINAL]
        parts.append(para("Accuracy on each perturbed condition minus accuracy on the originals of the same items, in "
                        "percentage points (pp), with a 95 % confidence interval for the difference. Below each: the "
                        "two accuracies (perturbed vs original) and their n."))
        originals = []
        for m in dict.fromkeys(d["model"]):
            x, n = acc.get((m, ORIGINAL), (0, 0))
            if n:
                originals.append(el("b", m) + " " + esc(f"{num(100.0 * x / n, 1)} % ({x}/{n})"))
        parts.append(wrap("p", "Accuracy on all originals: " + " · ".join(originals), class_="muted"))
        parts.append(_delta_table(d, conds, {}, "original", "stress") + _DELTA_LEGEND)
        parts.append(para(f"CI method: {CI_METHOD}.", "method"))
    summ = pd.DataFrame()
    if not d.empty:
        try:
            summ = stress.summary(raw, None)
            summ = summ.sort_values("model", kind="stable") if len(summ) else summ
        except Exception:  # noqa: BLE001 - the summary is an extra; the deltas above stand on their own
            summ = pd.DataFrame()
    if len(summ):
        people = stress.PEOPLE_COLUMNS
        cols = [(c, people[c]) for c in ("accuracy_original", "accuracy_perturbed")]
        cols += [(f"groups: {name}", f"{name} %") for name in ("group consistency", "answer flip rate")
                 if f"groups: {name}" in summ.columns]
        cols += [(c, people[c]) for c in ("correctness_flip_rate", "pairs_compared", "broke", "fixed")]
        rows = [wrap("tr", el("th", r["model"], scope="row") + "".join(
            el("td", num(r.get(c), 1), class_="num", data_col=h, data_value=data_num(r.get(c))) for c, h in cols),
            data_model=r["model"]) for r in summ.to_dict("records")]
        parts.append(el("h3", "Consistency across variants")
                     + grid_table(["model"] + [h for _, h in cols], rows, "grid consistency")
                     + glossary([h for _, h in cols], "groups"))
    parts.append(el("h3", "Accuracy per condition") + figure_html(
        lambda: R.plot_accuracy_by_condition(voted),
        "accuracy per perturbation condition, 95 % intervals over the units of evidence"))
    if len(raw):
        n_rows = voted[["item_id", "condition"]].drop_duplicates().shape[0]
        if n_rows <= MATRIX_ROW_LIMIT:
            parts.append('<details class="matrix"><summary>Every variant × model (the stress matrix, '
                         f'{n_rows} rows)</summary><div class="scroll">{stress.matrix_html(raw)}</div></details>')
        else:
            parts.append(para(f"The stress matrix ({n_rows} variants) is too large to embed; the app's Stress tab "
                              "shows it.", "muted"))
    return titled_section("stress", "Stress test: accuracy change under perturbation", "".join(parts))


def baseline_section(base: Run, voted: pd.DataFrame, base_voted: pd.DataFrame) -> str:
    d = baseline_deltas(voted, base_voted)
    title = "Against the baseline run"
    intro = wrap("p", "Accuracy of this run minus accuracy of the baseline run " + el("code", base.name)
                  + f" (seed {esc(base.seed)}), in percentage points with a 95 % confidence interval; first over "
                  "every condition, then per condition present in both runs.")
    if d.empty:
        return titled_section("baseline", title, intro + para("No model was scored in both runs: there is nothing to "
                                                      "compare."))
    only = sorted(set(map(str, voted["model"])) ^ set(map(str, base_voted["model"])))
    conds = ["*"] + [c for c in condition_order(d["condition"]) if c != "*"]
    body = intro + _delta_table(d, conds, {"*": "all conditions"}, "baseline", "vsbase") + _DELTA_LEGEND
    if only:
        body += para("Answered in only one of the runs (not compared): " + ", ".join(only), "muted")
    body += para(f"CI method: {CI_METHOD}.", "method")
    return titled_section("baseline", title, body)


PAIRED_BOOT = 100  # paired bootstrap resamples of the paper metrics in the report (probe-ui compare: --boot)


PAIRED_FLIPS = 20  # flipped questions listed per direction and model


def paired_section(store: Store, base: Run, run: Run, parser: str) -> str:
    """This run (B) against the baseline run (A), model by model, on the questions both answered: the paired
    comparison of ``probe-ui compare`` (fixed and broken questions, McNemar, Newcombe's paired interval)."""
    from probe_ui.views import compare, compare_format

    title = "Paired comparison with the baseline run"
    intro = para(f"The baseline run '{base.name}' is A, this run '{run.name}' is B. Unlike the section above, each "
                 "model "
               "is compared on the very questions both runs asked (same item, perturbation and sample), which is "
               "what a paired test needs: B fixed a question A got wrong, or broke one A got right. The same as "
               f"probe-ui compare {base.name} {run.name}.")
    try:
        pairs = compare.sides(store, [base.name, run.name], [])
    except compare.CompareError as exc:
        return titled_section("paired", title, intro + para(str(exc)))
    parts = [intro]
    for a, b in pairs:
        try:
            c = compare.compare(store, a, b, parser, n_boot=PAIRED_BOOT)
        except compare.CompareError as exc:
            parts.append(el("h3", a.model) + para(f"Not compared: {exc}"))
            continue
        parts.append(el("h3", a.model if a.model == b.model else f"{a.model} → {b.model}") + para(c["summary"]))
        if c["differences"]:
            parts.append(para("What differs between A and B: " + "; ".join(c["differences"]), "muted"))
        parts.append(el("h4", "Per perturbation (p-values Holm-adjusted)")
                     + frame_table(compare_format.groups_frame(c["by_condition"], "condition")))
        if c["paper"]:
            parts.append(el("h4", f"Paper metrics (paired bootstrap, {c['paper'][0]['n_boot']} resamples)")
                         + frame_table(compare_format.paper_frame(c["paper"])))
        flips = compare_format.flips_frame(c).drop(columns=["A answer #", "B answer #"])
        if len(flips):
            shown = flips.groupby("change", sort=False).head(PAIRED_FLIPS)
            parts.append(wrap("details", el("summary", f"Questions that flipped ({len(flips)}; the first "
                                                         f"{PAIRED_FLIPS} each way)")
                               + frame_table(shown, numeric_from=99)))
    parts.append(para("Intervals: Newcombe's paired 95 % interval of B − A (Newcombe 1998, method 10 for paired data), "
                    "over the units of evidence where a unit holds several questions (the table divided by the "
                    "design effect); test: exact McNemar on the questions that changed, or Durkalski's McNemar test "
                    "for clustered pairs where a unit holds several; per-perturbation p-values Holm-adjusted.",
                    "method"))
    return titled_section("paired", title, "".join(parts))


def robustness_section(curves: pd.DataFrame, raw: pd.DataFrame, base: Run | None, base_curves: pd.DataFrame,
                figures: bool = True) -> str:
    from probe_ui.views import results as R

    title = "Robustness curves"
    perts = list(dict.fromkeys(curves["perturbation"]))
    parts = [para("Accuracy at each level of each swept perturbation (level 0 is the original; severities 1-5, or "
                "rotation in degrees), one line per model with its 95 % band (over the units of evidence). AUC: "
                "the area under the curve with the levels at equal steps from the original, normalised to 0-100 "
                "(a model whose accuracy never moves scores its own accuracy); AUC / original: the share of the "
                "original's accuracy kept. "
                "An item's breaking level is the lowest level whose answer differs from the item's original "
                "answer; the median is over the items that broke.", "muted")]
    for p in perts if figures else ():  # the app draws the curves itself, interactive (probe_ui.views.plots)
        parts.append(wrap("div", el("h3", p) + figure_html(
            lambda p=p: R.plot_robustness_curve(curves, p),
            f"accuracy by {p} level, 95 % bands over the units of evidence"),
            class_="curve", data_perturbation=p))
    table = R.breaking_points_table(raw)
    head = list(table.columns)
    keys = [c for c in head if c in ("run", "model", "perturbation")]  # "run" when several runs are shown
    rows = []
    for r in table.to_dict("records"):
        cells = [el("th", r[c], scope="row", class_="key" if c == "perturbation" else None) for c in keys]
        cells += [el("td", num(r[c], 1), class_="num", data_col=c, data_value=data_num(r[c]))
                  for c in head if c not in keys]
        rows.append(wrap("tr", "".join(cells), data_model=r["model"], data_perturbation=r["perturbation"]))
    parts.append(el("h3", "AUC and breaking points")
                 + grid_table(keys + [c for c in head if c not in keys], rows, "grid breaking",
                              numeric_from=len(keys)))
    if base is not None:
        d = robustness_baseline_deltas(curves, base_curves)
        intro = wrap("p", "The sweep of this run minus the same sweep in the baseline run " + el("code", base.name)
                      + ": accuracy difference per perturbation and level, in percentage points with a 95 % "
                      "confidence interval.")
        if d.empty:
            parts.append(el("h3", "Against the baseline run") + intro
                         + para("The baseline run holds no sweep answered by the same models: there is nothing to "
                              "compare."))
        else:
            conds = list(dict.fromkeys(d["condition"]))
            parts.append(el("h3", "Against the baseline run") + intro
                         + _delta_table(d, conds, {}, "baseline", "sweep-vs-base") + _DELTA_LEGEND
                         + para(f"CI method: {CI_METHOD}.", "method"))
    return titled_section("robustness", title, "".join(parts))
