"""``probe-ui report``: one self-contained HTML file describing a stored run.

The file needs nothing but a browser: no scripts, no web fonts, no external resources (a Content-Security-Policy
meta tag forbids them); the CSS is inline, plots are PNGs and thumbnails JPEGs embedded as ``data:`` URIs.

Sections:

1. **Header**: run name, created / updated, seed, variants, answers, models.
2. **Overview**: one row per model (:func:`probe_ui.results.metric_tables`' ``overview``, i.e. the numbers of
   ``probe-ui score``) plus median latency and cost.
3. **Per-paper metrics**: each family of :func:`probe_ui.results.metric_tables` pivoted: one row per model, one
   column per metric; a family's breakdowns (``per_category.*``, ``per_condition.*``, ...) get a table each, one
   row per model and breakdown key.
4. **Stress test**: per model, accuracy on each perturbation condition minus accuracy on the originals of the same
   items (:func:`stress_deltas`), in percentage points, with a 95 % CI for the difference (below), the stress
   summary of :func:`probe_ui.stress.summary`, the accuracy-per-condition plot and the variants x models matrix.
5. **Against a baseline run** (``baseline``): per model, overall and per condition, accuracy(run) -
   accuracy(baseline) with its 95 % CI (:func:`baseline_deltas`).
6. **Robustness curves** (only when the run holds a sweep: the ``severity`` suite or the Stress tab's sweep): one
   figure per perturbation (accuracy per level, models as lines with 95 % bands over the units of evidence,
   :func:`probe_ui.results.plot_robustness_curve`), the table of AUCs and breaking points
   (:func:`probe_ui.results.breaking_points_table`) and, with ``baseline``, per perturbation and level the
   accuracy of this run minus the baseline run's with Newcombe's CI (:func:`robustness_baseline_deltas`).
7. **Clinician agreement** (only when someone rated an answer): Cohen's / Fleiss' kappa with bootstrap CIs,
   overall, per model and per pair of raters, the raters' majority against the parser, and the answers where the
   clinicians overrule the parser (:func:`probe_ui.results.agreement_tables`).
8. **Plots**: accuracy per category (:func:`probe_ui.results.plot_category_heatmap`) and the confusion
   matrices (:func:`probe_ui.results.plot_confusion`).
9. **Worst cases**: the variants most models failed (all-failed first), each with thumbnails, item id, condition,
   question, options, expected answer and every model's parsed answer (and the start of its raw reply).
10. **Provenance**: package versions, seed, settings (models' public configuration without key variables, presets by
   file name only, no absolute paths), and the command that reproduces the run.

Numbers: every section reads the run's scored answers (:func:`probe_ui.scoring.scored_answers`, under the parser
asked for, robust by default) with several samples reduced to their majority vote, as ``probe-ui score`` does, so
the deltas and plots agree with the overview. Error rows and answers whose ground truth
is unknown are not scored; an unreadable (invalid) answer is wrong.

Confidence intervals of a difference of two accuracies p1 - p2 use **Newcombe's hybrid score interval** (Newcombe
1998, "Interval estimation for the difference between independent proportions", method 10), built from the 95 %
Wilson intervals (l1, u1) and (l2, u2) of the two accuracies::

    lower = (p1 - p2) - sqrt((p1 - l1)^2 + (u2 - p2)^2)
    upper = (p1 - p2) + sqrt((u1 - p1)^2 + (p2 - l2)^2)

It treats the two samples as independent. A perturbed variant and its original (or a run and a baseline run over the
same items) are usually positively correlated; for such paired data the interval tends to be conservative (wider
than a paired interval would be).

Every string that comes from users, presets or models is escaped with :func:`html.escape` (``quote=True``), in
text and in attributes alike.
"""

from __future__ import annotations

import base64
import io
import json
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import pandas as pd

from probe_ui import redact
from probe_ui.deltas import (
    ORIGINAL,
    answer_counts,
    baseline_deltas,
    robustness_baseline_deltas,
    stress_deltas,
    worst_cases,
)
from probe_ui.errors import ProbeUIError
from probe_ui.markup import data_num, el, esc, grid_table, num, para, titled_section, wrap
from probe_ui.metrics import figures as F
from probe_ui.paths import PathError, output_file
from probe_ui.pushback.view import pushback_html
from probe_ui.rebuild import reproduce_commands
from probe_ui.results import condition_order
from probe_ui.results.calibration_view import calibration_html
from probe_ui.safe_write import WriteError, check_target, write_bytes
from probe_ui.scoring import value_or_none

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from probe_ui.store import Run, Store

__all__ = ["ReportError", "build_report", "extra_sections", "write_report"]

THUMB_PX = 160
THUMBS_PER_CASE = 3
PLOT_DPI = 100
MATRIX_ROW_LIMIT = 400  # the full stress matrix is embedded up to this many variants
RAW_CHARS = 240  # the start of a model's raw reply shown among the worst cases
CI_METHOD = ("Newcombe's hybrid score interval (method 10 of Newcombe 1998) from the two 95 % Wilson intervals; it "
             "treats the two samples as independent, so for paired data (the same items perturbed, or the same "
             "items in two runs), which are usually positively correlated, it tends to be conservative: wider than "
             "a paired interval would be")


class ReportError(ProbeUIError, ValueError):
    """The report cannot be made as asked: an unknown run or baseline, or an output that cannot be written."""


# ---- the answers ---------------------------------------------------------------------------------------------------

def _get_run(store: Store, name: str | None, what: str = "run") -> Run:
    from probe_ui.store import StoreError

    try:
        return store.get_run(name or None)
    except StoreError:
        known = [r.name for r in store.list_runs()]
        if not known:
            raise ReportError("no runs in this store yet: run 'probe-ui batch' first") from None
        listed = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
        raise ReportError(f"no {what} named '{name}' in this store (runs: {listed})") from None


def _frames(store: Store, run: Run, parser: str, judge: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the run's scored answers under ``parser`` and the fallback ``judge``'s decisions,
    :func:`probe_ui.scoring.scored_answers`; the same reduced to one row per cell by majority vote)."""
    from probe_ui.metrics.samples import majority_vote
    from probe_ui.scoring import scored_answers

    df = scored_answers(store, run.name, parser, judge=judge)
    return df, majority_vote(df)


def _figure_html(make: Any, alt: str) -> str:
    """A figure built by ``make()`` as an embedded PNG; a line saying why when there is nothing to plot (a picture
    of that sentence would cost a reader a download and a screen reader its text) or it cannot be drawn."""
    from probe_ui.results.figures import EMPTY_LABEL

    try:
        fig = make()
        if fig.get_label().startswith(EMPTY_LABEL):
            return para(f"({alt}: {fig.get_label().removeprefix(EMPTY_LABEL)})", "muted")
        png = _png(fig)
    except Exception as exc:  # noqa: BLE001 - a plot that cannot be drawn must not lose the report
        return para(f"({alt}: the figure could not be drawn: {exc.__class__.__name__}: {exc})", "muted")
    uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return f'<figure><img class="plot" src="{uri}" alt="{esc(alt)}"></figure>'


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=PLOT_DPI)
    return buf.getvalue()


def _thumbnail(store: Store, image_id: str) -> str:
    """One stored image as an inline JPEG no larger than THUMB_PX on its longer side."""
    from probe_ui.store import StoreError

    try:
        im = store.get_image(image_id).pil()
    except (StoreError, OSError, ValueError) as exc:
        return el("span", f"image {image_id[:12]} missing ({exc.__class__.__name__})", class_="thumb missing")
    im.thumbnail((THUMB_PX, THUMB_PX))
    if im.mode not in ("L", "RGB"):
        im = im.convert("RGB")
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=82)
    uri = "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img class="thumb" src="{uri}" width="{im.width}" height="{im.height}" alt="{esc(image_id[:12])}">'


# ---- sections ------------------------------------------------------------------------------------------------------

def _header(run: Run, raw: pd.DataFrame, n_variants: int, baseline: Run | None, report: dict[str, Any],
            parser: str) -> str:
    models = sorted({str(m) for m in raw["model"]}) if len(raw) else []
    errors = int(raw["error"].notna().sum()) if len(raw) else 0
    facts = [("created", _when(run.created_at)), ("updated", _when(run.updated_at)), ("seed", run.seed),
             ("variants", n_variants), ("answers", f"{len(raw)}" + (f" ({errors} errors)" if errors else "")),
             ("models", len(models))]
    if report.get("items_not_loaded"):
        facts.append(("items not loaded", report["items_not_loaded"]))
    if baseline is not None:
        facts.append(("baseline", baseline.name))
    if report.get("judge"):
        decided = int((raw["method"] == "judge").sum()) if len(raw) else 0
        facts.append(("judge", f"{report['judge']}: decided {decided} answer{'' if decided == 1 else 's'} the rules "
                               "could not read"))
    dl = "".join(el("dt", k) + el("dd", v) for k, v in facts)
    kind = run.config.source
    return ('<header><p class="kicker">probe-ui report</p>'
            + el("h1", run.name, class_="runname")
            + wrap("dl", dl, class_="facts")
            + para(f"{kind} run · models: {', '.join(models) or 'none yet'} · replies read with the {parser} parser"
                 + (" (several samples reduced by majority vote)" if len(raw) and int(raw["sample"].max()) > 0
                    else ""), "muted")
            + "</header>")


def _when(ts: str) -> str:
    try:
        return datetime.fromisoformat(ts).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (TypeError, ValueError):
        return str(ts)


def _overview(tables: dict[str, pd.DataFrame], raw: pd.DataFrame, report: dict[str, Any]) -> str:
    ov = tables["overview"]
    if ov.empty:
        return titled_section("overview", "Overview", para("No answers yet."))
    rows = []
    for r in ov.to_dict("records"):
        g = raw[raw["model"] == r["model"]] if len(raw) else raw
        lat = g["latency_s"].dropna() if len(g) else pd.Series(dtype=float)
        cost = g["cost"].dropna().sum() if len(g) else 0.0
        ci = f"{num(r['ci_low'], 1)}–{num(r['ci_high'], 1)}" if value_or_none(r["ci_low"]) is not None else "–"
        from probe_ui.score_format import units_cell

        cells = [el("th", r["model"], scope="row"),
                 el("td", r["n"], class_="num", data_col="n"),
                 el("td", units_cell({str(k): v for k, v in r.items()}), class_="num", data_col="units"),
                 el("td", num(r["accuracy"]), class_="num strong", data_col="accuracy",
                     data_value=data_num(r["accuracy"])),
                 el("td", ci, class_="num", data_col="ci"),
                 el("td", num(r["random"], 1), class_="num", data_col="random"),
                 el("td", num(r["invalid"], 1), class_="num", data_col="invalid", data_value=data_num(r["invalid"])),
                 el("td", num(r["refusal"], 1), class_="num", data_col="refusal", data_value=data_num(r["refusal"])),
                 el("td", r["answered"], class_="num", data_col="answered"),
                 el("td", r["errors"], class_="num", data_col="errors"),
                 el("td", num(float(lat.median()), 2) if len(lat) else "–", class_="num", data_col="latency"),
                 el("td", num(float(cost), 4) if cost else "0", class_="num", data_col="cost")]
        rows.append(wrap("tr", "".join(cells), data_model=r["model"]))
    head = ["model", F.SCORED, F.UNITS, f"{F.ACCURACY} %", "95 % CI", f"{F.RANDOM} %", f"{F.UNREADABLE} %",
            f"{F.REFUSED} %", F.ANSWERED, F.FAILED, F.LATENCY, F.COST]
    from probe_ui.score_format import interval_notes

    notes = interval_notes({"models": {r["model"]: {"accuracy": r} for r in ov.to_dict("records")
                                       if value_or_none(r.get("units")) is not None}})
    return titled_section("overview", "Overview", grid_table(head, rows, "grid overview") + _glossary(head)
                    + "".join(para(x, "method") for x in notes) + para("The numbers of 'probe-ui score'.", "muted"))


def _glossary(labels: Sequence[str], family: str | None = None) -> str:
    """What each figure named in a table's header counts, in words, under the table (one name, one meaning:
    :mod:`probe_ui.metrics.figures`)."""
    from probe_ui.metrics.registry import find_figure

    items: list[tuple[str, str]] = []
    for label in labels:
        f = find_figure(label) or (find_figure(label, family) if family else None)
        if f is not None and f.name not in {n for n, _ in items}:
            items.append((f.name, f.meaning))
    if not items:
        return ""
    return wrap("ul", "".join(wrap("li", el("b", n) + esc(f": {m}")) for n, m in items), class_="glossary muted")


def _split_metric(metric: str) -> tuple[str, str, str]:
    """(table, row key, column) of a dotted metric path: top-level leaves go to the family's summary table,
    ``part.leaf`` to its by-part table (one row per part), ``breakdown.key.leaf`` to the breakdown's table."""
    parts = metric.split(".")
    if len(parts) == 1:
        return "", "", parts[0]
    if len(parts) == 2:
        return "", parts[0], parts[1]
    return parts[0], ".".join(parts[1:-1]), parts[-1]


_KEY_NAMES = {"per_category": "category", "per_condition": "condition", "by_suite": "suite", "per_task": "task"}


def _family(section: str, t: pd.DataFrame, models: list[str]) -> str:
    """One family's long table as pivoted tables: one row per model, one column per metric; a breakdown
    (``per_category.<c>.<metric>``, ...) gets a table of its own with one row per model and breakdown key."""
    groups: dict[tuple[str, bool], dict[str, Any]] = {}
    for r in t.to_dict("records"):
        table, key, col = _split_metric(str(r["metric"]))
        g = groups.setdefault((table, bool(key)), {"cols": [], "rows": {}})
        if col not in g["cols"]:
            g["cols"].append(col)
        g["rows"].setdefault((str(r["model"]), key), {})[col] = r
    out = []
    order = {m: i for i, m in enumerate(models)}
    ranked = sorted(groups.items(), key=lambda kv: (kv[0][0] != "", kv[0][1] if kv[0][0] == "" else 0))
    for (table, keyed), g in ranked:
        title = f"{section} · {table}" if table else f"{section} · {'by part' if keyed else 'summary'}"
        key_name = _KEY_NAMES.get(table, "breakdown" if table else "part")
        head = ["model"] + ([key_name] if keyed else []) + g["cols"]
        seen = list(g["rows"])
        keys = sorted(seen, key=lambda mk: (order.get(mk[0], len(order)), mk[0], seen.index(mk)))
        span = {m: sum(1 for k in keys if k[0] == m) for m, _ in keys}
        trs, last = [], None
        for model, key in keys:
            cells, starts = [], model != last
            if starts:
                cells.append(el("th", model, scope="row", rowspan=span[model] if keyed and span[model] > 1 else None))
            last = model
            if keyed:
                cells.append(el("th", key, scope="row", class_="key"))
            for col in g["cols"]:
                r = g["rows"][(model, key)].get(col)
                if r is None:
                    cells.append('<td class="num muted">·</td>')
                    continue
                tip = None
                if value_or_none(r.get("denominator")) is not None:
                    tip = f"{num(r['numerator'])}/{num(r['denominator'])}"
                    if value_or_none(r.get("ci_low")) is not None:
                        tip += f" · 95 % CI {num(r['ci_low'])}–{num(r['ci_high'])}"
                    if value_or_none(r.get("random")) is not None:
                        tip += f" · random {num(r['random'])}"
                cells.append(el("td", num(r["value"]), class_="num", title=tip, data_model=model,
                                 data_metric=r["metric"], data_value=data_num(r["value"])))
            trs.append(wrap("tr", "".join(cells), class_="group-start" if keyed and starts else None))
        tab = grid_table(head, trs, "grid family", numeric_from=2 if keyed else 1)
        if table:  # a breakdown: folded, the summaries stay in view
            out.append(wrap("details", wrap("summary", esc(title) + el("span", f" ({len(trs)} rows)", class_="muted"))
                             + tab, class_="breakdown"))
        else:
            out.append(el("h4", title) + tab)
    return wrap("div", "".join(out), class_="family", data_family=section)


def _papers(tables: dict[str, pd.DataFrame]) -> str:
    models = [str(m) for m in tables["overview"]["model"]]
    fams = [(k, v) for k, v in tables.items() if k != "overview" and not v.empty]
    if not fams:
        return titled_section("papers", "Per-paper metrics", para("No per-paper metric applies to this run's answers."))
    body = para("The metrics of the probing papers that apply to this run (as 'probe-ui score' prints them), in "
                "percent "
              "where they are rates. Hover a cell for numerator/denominator, its 95 % CI and the random-guess "
              "reference.", "muted")
    for name, t in fams:
        body += el("h3", name) + _family(name, t, models)
    return titled_section("papers", "Per-paper metrics", body)


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


def _stress(raw: pd.DataFrame, voted: pd.DataFrame) -> str:
    from probe_ui import results as R
    from probe_ui import stress

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
                     + _glossary([h for _, h in cols], "groups"))
    parts.append(el("h3", "Accuracy per condition") + _figure_html(
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


def _baseline(base: Run, voted: pd.DataFrame, base_voted: pd.DataFrame) -> str:
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


def _frame_table(df: pd.DataFrame, cls: str = "grid", numeric_from: int = 1) -> str:
    """A small table of display strings (:mod:`probe_ui.compare_format`'s frames) as escaped HTML."""
    rows = [wrap("tr", "".join(el("th" if i == 0 else "td", v, scope="row" if i == 0 else None,
                                    class_="num" if i >= numeric_from else None)
                                for i, v in enumerate(map(str, r)))) for r in df.itertuples(index=False)]
    return grid_table(list(map(str, df.columns)), rows, cls, numeric_from)


def _paired(store: Store, base: Run, run: Run, parser: str) -> str:
    """This run (B) against the baseline run (A), model by model, on the questions both answered: the paired
    comparison of ``probe-ui compare`` (fixed and broken questions, McNemar, Newcombe's paired interval)."""
    from probe_ui import compare, compare_format

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
                     + _frame_table(compare_format.groups_frame(c["by_condition"], "condition")))
        if c["paper"]:
            parts.append(el("h4", f"Paper metrics (paired bootstrap, {c['paper'][0]['n_boot']} resamples)")
                         + _frame_table(compare_format.paper_frame(c["paper"])))
        flips = compare_format.flips_frame(c).drop(columns=["A answer #", "B answer #"])
        if len(flips):
            shown = flips.groupby("change", sort=False).head(PAIRED_FLIPS)
            parts.append(wrap("details", el("summary", f"Questions that flipped ({len(flips)}; the first "
                                                         f"{PAIRED_FLIPS} each way)")
                               + _frame_table(shown, numeric_from=99)))
    parts.append(para("Intervals: Newcombe's paired 95 % interval of B − A (Newcombe 1998, method 10 for paired data), "
                    "over the units of evidence where a unit holds several questions (the table divided by the "
                    "design effect); test: exact McNemar on the questions that changed, or Durkalski's McNemar test "
                    "for clustered pairs where a unit holds several; per-perturbation p-values Holm-adjusted.",
                    "method"))
    return titled_section("paired", title, "".join(parts))


def _robustness(curves: pd.DataFrame, raw: pd.DataFrame, base: Run | None, base_curves: pd.DataFrame,
                figures: bool = True) -> str:
    from probe_ui import results as R

    title = "Robustness curves"
    perts = list(dict.fromkeys(curves["perturbation"]))
    parts = [para("Accuracy at each level of each swept perturbation (level 0 is the original; severities 1-5, or "
                "rotation in degrees), one line per model with its 95 % band (over the units of evidence). AUC: "
                "the area under the curve with the levels at equal steps from the original, normalised to 0-100 "
                "(a model whose accuracy never moves scores its own accuracy); AUC / original: the share of the "
                "original's accuracy kept. "
                "An item's breaking level is the lowest level whose answer differs from the item's original "
                "answer; the median is over the items that broke.", "muted")]
    for p in perts if figures else ():  # the app draws the curves itself, interactive (probe_ui.plots)
        parts.append(wrap("div", el("h3", p) + _figure_html(
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


AGREEMENT_ROWS = 60  # overruled answers listed in the report


def _agreement(raw: pd.DataFrame) -> str:
    from probe_ui import results as R
    from probe_ui.metrics.agreement import rater_agreement

    block = rater_agreement(raw) or {}
    t = R.agreement_tables(raw)
    raters = ", ".join(block.get("raters") or [])
    parts = [para(f"{block.get('ratings', 0)} ratings of {block.get('answers_rated', 0)} answers by "
                f"{len(block.get('raters') or [])} rater(s): {raters}. Each rater's latest rating of an answer "
                "counts (correct / incorrect / unsure).", "muted")]
    if t["kappa"].empty:
        parts.append(para("Kappa needs two raters who rated the same answers: with one rater there is no agreement "
                        "to measure."))
    else:
        rows = [wrap("tr", el("th", r["scope"], scope="row") + el("td", r["method"]) + el("td", r["raters"])
                      + el("td", num(r["kappa"], 3), class_="num strong", data_col="kappa",
                            data_value=data_num(r["kappa"]))
                      + el("td", f"{num(r['ci_low'], 3)} to {num(r['ci_high'], 3)}", class_="num", data_col="ci")
                      + el("td", r["n"], class_="num"), data_scope=r["scope"])
                for r in t["kappa"].to_dict("records")]
        parts.append(el("h3", "Agreement between raters")
                     + grid_table(["scope", "method", "raters", "kappa", "95 % CI", "answers"], rows, "grid kappa", 3)
                     + para("Cohen's kappa for two raters (over the answers both rated), Fleiss' kappa for three or "
                          "more (over the answers rated at least twice), 1 = perfect agreement, 0 = what chance "
                          "gives; 95 % CI: percentile bootstrap over answers (2000 resamples, seed 0).", "method"))
    rows = [wrap("tr", el("th", r["scope"], scope="row")
                  + el("td", num(r["agreement %"], 1), class_="num strong", data_col="agreement",
                        data_value=data_num(r["agreement %"]))
                  + el("td", f"{num(r['ci_low'], 1)}–{num(r['ci_high'], 1)}", class_="num")
                  + el("td", r["n"], class_="num") + el("td", r["overruled"], class_="num"))
            for r in t["vs_parser"].to_dict("records")]
    parts.append(el("h3", "The raters' majority against the parser")
                 + grid_table(["scope", "agreement %", "95 % CI", "answers", "overruled"], rows, "grid vsparser")
                 + para("Answers whose majority rating is correct or incorrect and that the parser scored (an "
                      "unreadable answer counts as wrong); a tie or an 'unsure' majority is not counted.", "muted"))
    over = t["overruled"]
    if len(over):
        rows = [wrap("tr", el("td", r["response_id"], class_="num") + el("th", r["model"], scope="row")
                      + el("td", r["item_id"]) + el("td", r["condition"])
                      + el("td", _short(str(r["reply"] or ""), RAW_CHARS), class_="raw")
                      + el("td", "invalid" if r["parsed"] is None else r["parsed"]) + el("td", r["parser"])
                      + el("td", r["majority"], class_="strong") + el("td", r["ratings"]),
                      data_response=r["response_id"])
                for r in over.head(AGREEMENT_ROWS).to_dict("records")]
        more = f" (the first {AGREEMENT_ROWS} of {len(over)})" if len(over) > AGREEMENT_ROWS else ""
        parts.append(el("h3", f"Where the clinicians overrule the parser{more}")
                     + grid_table(["response", "model", "item", "condition", "reply", "parsed", "parser", "majority",
                               "ratings"], rows, "grid overruled", 99)
                     + para("Read these replies to see what the parser misreads (or where the ground truth is in "
                          "doubt).", "muted"))
    return titled_section("agreement", "Clinician agreement", "".join(parts))


def _plots(voted: pd.DataFrame) -> str:
    from probe_ui import results as R

    return titled_section("plots", "Categories and confusion",
                    el("h3", "Accuracy per category")
                    + _figure_html(lambda: R.plot_category_heatmap(voted), "accuracy per category and model")
                    + el("h3", "Confusion: expected × parsed answer")
                    + _figure_html(lambda: R.plot_confusion(voted), "confusion matrices, one per model"))


_STATE_MARK = {"right": "✓", "wrong": "✗", "invalid": "✗", "error": "!", "unknown": "?"}


def _worst(store: Store, voted: pd.DataFrame) -> str:
    from probe_ui.items import labels_for
    from probe_ui.store import StoreError

    cases = worst_cases(voted)
    title = "Worst cases"
    if not cases:
        return titled_section("worst", title, para("No scored variant was failed by any model."))
    cards = []
    for c in cases:
        opts = [str(o) for o in c["options"]]
        try:
            labels = list(labels_for(str(c["kind"]), tuple(opts)))
        except Exception:  # noqa: BLE001 - an odd kind still shows its options
            labels = []
        by_label = dict(zip(labels, opts))
        try:
            ids = [str(i) for i in store.get_response(c["response_id"]).get("image_ids") or []]
        except (StoreError, TypeError, ValueError):
            ids = []
        thumbs = "".join(_thumbnail(store, i) for i in ids[:THUMBS_PER_CASE])
        if len(ids) > THUMBS_PER_CASE:
            thumbs += el("span", f"+{len(ids) - THUMBS_PER_CASE} more", class_="muted")
        opt_html = ""
        if opts:
            items = "".join(wrap("li", (el("b", lb + ": ") if lb and lb != o else "") + esc(o))
                            for lb, o in zip(labels or [""] * len(opts), opts))
            opt_html = wrap("ol", items, class_="options")
        expected = c["answer_label"] or "–"
        if c["answer"] and str(c["answer"]) != str(expected):
            expected = f"{expected} ({c['answer']})"
        ans_rows = []
        for a in c["answers"]:
            parsed = a["parsed"]
            shown = "invalid" if a["state"] == "invalid" else "error" if a["state"] == "error" else str(parsed)
            if parsed is not None and str(parsed) in by_label and by_label[str(parsed)] != str(parsed):
                shown += f" ({_short(by_label[str(parsed)], 60)})"
            raw = _short(str(a["raw"] or ""), RAW_CHARS)
            ans_rows.append(wrap("tr", el("th", a["model"], scope="row")
                                  + el("td", f"{_STATE_MARK.get(a['state'], '')} {shown}", class_=f"ans {a['state']}",
                                        data_model=a["model"], data_state=a["state"])
                                  + el("td", raw, class_="raw")))
        meta = wrap("dl", el("dt", "item") + el("dd", c["item_id"]) + el("dt", "condition")
                     + el("dd", c["condition"]) + el("dt", "expected") + el("dd", expected, class_="expected")
                     + el("dt", "failed by") + el("dd", f"{c['failed']} of {c['scored']} models"), class_="facts")
        body = (wrap("div", thumbs or el("span", "no image", class_="muted"), class_="thumbs")
                + wrap("div", meta + el("p", c["question"] or "", class_="question") + opt_html
                        + grid_table(["model", "parsed answer", "reply (start)"], ans_rows, "grid answers", 99),
                        class_="case-body"))
        cards.append(wrap("article", body, class_="case", data_variant=c["variant_id"], data_failed=c["failed"],
                           data_scored=c["scored"]))
    intro = para(f"The {len(cases)} variants the most models failed (every model first), with each model's parsed "
               "answer; an invalid answer (no option could be read) counts as wrong.", "muted")
    return titled_section("worst", title, intro + "".join(cards))


def _short(s: str, n: int) -> str:
    """One line of at most ``n`` characters, keys masked on the full text first."""
    return redact.clip(s, n)


# ---- provenance ----------------------------------------------------------------------------------------------------

def _provenance(store: Store, run: Run, baseline: Run | None) -> str:
    s = redact.public_settings(run.settings, paths=True)
    parts = []
    cmds = reproduce_commands(store, run, baseline)
    parts.append(el("h3", "Reproduce")
                 + para("Run from the folder that holds the preset files, in a fresh database (or under another --run "
                      "name: a run that exists is resumed, not repeated). Model names are the catalogue's; keys come "
                      "from the environment.", "muted")
                 + "".join(wrap("div", el("span", what, class_="muted") + el("pre", cmd), class_="cmd")
                           for what, cmd in cmds))
    models = s.pop("models", None) or []
    if models:
        rows = [wrap("tr", el("th", m.get("name"), scope="row") + el("td", m.get("provider"))
                      + el("td", m.get("model")) + el("td", m.get("base_url") or "–")
                      + el("td", json.dumps(m.get("generation") or {}, sort_keys=True, default=str)))
                for m in models if isinstance(m, dict)]
        parts.append(el("h3", "Models") + grid_table(["name", "provider", "model", "base URL", "generation"], rows,
                                                  "grid", 99))
    presets = s.pop("presets", None) or []
    if presets:
        rows = [wrap("tr", el("th", p.get("name"), scope="row") + el("td", p.get("path"))
                      + el("td", p.get("sha256"), class_="mono"))
                for p in presets if isinstance(p, dict)]
        parts.append(el("h3", "Presets") + grid_table(["name", "file", "sha256"], rows, "grid", 99))
    unit = s.pop("unit", None)
    rest = {"seed": run.seed, **s}
    if isinstance(unit, dict) and unit.get("unit"):  # the run's unit of evidence in words: "8 pairs (16 items)"
        from probe_ui.metrics.units import WORDS

        one, many = WORDS.get(str(unit["unit"]), (str(unit["unit"]), f"{unit['unit']}s"))
        rest["unit of evidence"] = (f"{unit.get('units')} {one if unit.get('units') == 1 else many}"
                                    f" ({unit.get('items')} items)")
    rows = [wrap("tr", el("th", k, scope="row") + el("td", v if isinstance(v, str) else
                                                         json.dumps(v, sort_keys=True, default=str), class_="mono"))
            for k, v in rest.items()]
    parts.append(el("h3", "Settings") + grid_table(["setting", "value"], rows, "grid", 99))
    versions = redact.public_settings(run.versions or {}, paths=True)
    rows = [wrap("tr", el("th", k, scope="row") + el("td", v, class_="mono")) for k, v in versions.items()]
    parts.append(el("h3", "Package versions (when the run was made)")
                 + grid_table(["package", "version"], rows, "grid", 99))
    from probe_ui import __version__

    parts.append(para(f"Report made {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')} by probe-ui "
                    f"{__version__}.", "muted"))
    return titled_section("provenance", "Provenance", "".join(parts))


# ---- the document --------------------------------------------------------------------------------------------------

_CSS = """
:root { color-scheme: light; --fg:#1d2327; --muted:#5f6b73; --line:#d9dee2; --bg:#ffffff; --soft:#f4f6f8;
  --accent:#1f5f99; --neg:#f6c7c4; --negfg:#8a1c14; --pos:#cfe9d2; --posfg:#1b5e20; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--soft); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 60px; background: var(--bg); }
header { border-bottom: 3px solid var(--accent); padding-bottom: 12px; margin-bottom: 8px; }
.kicker { margin: 0; color: var(--accent); font-weight: 600; letter-spacing: .04em; text-transform: uppercase;
  font-size: 12px; }
h1 { margin: 4px 0 10px; font-size: 26px; word-break: break-all; }
h2 { margin: 34px 0 10px; font-size: 21px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 22px 0 8px; font-size: 17px; }
h4 { margin: 16px 0 6px; font-size: 14px; color: var(--muted); }
nav { position: sticky; top: 0; background: var(--bg); padding: 8px 0; border-bottom: 1px solid var(--line);
  z-index: 2; font-size: 14px; }
nav a { color: var(--accent); text-decoration: none; margin-right: 16px; white-space: nowrap; }
nav a:hover { text-decoration: underline; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
header dl.facts { grid-template-columns: repeat(auto-fill, minmax(120px, max-content) minmax(150px, 1fr)); }
dt { color: var(--muted); } dd { margin: 0; font-weight: 500; word-break: break-word; }
p { margin: 6px 0; } .muted { color: var(--muted); font-size: 13px; } .method { font-size: 13px; color: var(--muted);
  border-left: 3px solid var(--line); padding-left: 8px; }
.scroll { overflow-x: auto; max-width: 100%; }
table.grid { border-collapse: collapse; font-size: 13px; margin: 6px 0 10px; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
table.grid thead th { background: var(--soft); font-weight: 600; }
table.grid .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
/* a table fits the page: its headings wrap between words (the numbers under them stay on one line); one still
   wider than the page scrolls in its own box (.scroll) */
table.grid thead th, table.grid thead th.num { white-space: normal; overflow-wrap: normal; }
.stress-legend span { display: inline-block; margin-bottom: 3px; }  /* the legend wraps between its swatches */
table.grid tbody th { font-weight: 600; white-space: nowrap; }
table.grid tbody th.key { font-weight: 400; color: var(--muted); }
table.grid tr.group-start > * { border-top: 2px solid #aab4bb; }
td.strong { font-weight: 700; }
td.dcell { min-width: 118px; }
td.dcell span { display: block; } .delta { font-size: 15px; font-weight: 700; }
.ci { color: var(--fg); } .sub { color: var(--muted); font-size: 11px; }
td.neg, .swatch.neg { background: var(--neg); } td.neg .delta { color: var(--negfg); }
td.pos, .swatch.pos { background: var(--pos); } td.pos .delta { color: var(--posfg); }
td.ns, .swatch.ns { background: #fff; }
.legend { font-size: 12px; color: var(--muted); }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid var(--line); margin: 0 4px 0 10px;
  vertical-align: -2px; }
figure { margin: 8px 0 16px; } img.plot { max-width: 100%; height: auto; border: 1px solid var(--line); }
details.matrix, details.breakdown { margin: 10px 0; }
details summary { cursor: pointer; color: var(--accent); font-size: 14px; font-weight: 600; }
article.case { display: grid; grid-template-columns: 180px 1fr; gap: 16px; border: 1px solid var(--line);
  border-radius: 6px; padding: 12px; margin: 12px 0; break-inside: avoid; }
.thumbs { display: flex; flex-direction: column; gap: 6px; align-items: flex-start; }
img.thumb { border: 1px solid var(--line); background: #000; max-width: 160px; max-height: 160px; }
span.thumb.missing { font-size: 12px; color: var(--muted); }
.case-body dl.facts { grid-template-columns: max-content 1fr max-content 1fr; }
.question { font-weight: 600; margin: 8px 0 4px; white-space: pre-wrap; word-break: break-word; }
ol.options { margin: 2px 0 8px; padding-left: 18px; list-style: none; font-size: 14px; }
td.ans { white-space: nowrap; font-weight: 600; } td.ans.right { color: var(--posfg); }
td.ans.wrong, td.ans.invalid { color: var(--negfg); } td.ans.error { color: var(--muted); }
td.raw { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px;
  word-break: break-word; max-width: 520px; }
.mono, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
td.mono { word-break: break-all; max-width: 760px; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 8px 10px; white-space: pre-wrap;
  word-break: break-all; margin: 2px 0 10px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 0 3px; }
@media print { nav { display: none; } main { max-width: none; } body { background: #fff; } }
"""

_CSP = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; "
        "form-action 'none'")


def extra_sections(raw: pd.DataFrame, base: Run | None = None, base_raw: pd.DataFrame | None = None,
                   figures: bool = True, curves: pd.DataFrame | None = None) -> list[tuple[str, str, str]]:
    """The sections that appear only when their data is there: robustness curves (a severity sweep) and clinician
    agreement (rated answers), as (anchor, title, HTML); the Results tab shows the same HTML, without the curves'
    static figures (``figures`` False: it draws them interactive). ``curves``: ``raw``'s robustness curves when
    the caller has them already."""
    from probe_ui import results as R

    out = []
    curves = R.robustness_curves(raw) if curves is None else curves
    if len(curves):
        base_curves = R.robustness_curves(base_raw) if base_raw is not None else pd.DataFrame()
        out.append(("robustness", "Robustness curves", _robustness(curves, raw, base, base_curves, figures)))
    if "rater_ratings" in raw.columns and raw["rater_ratings"].notna().any():
        out.append(("agreement", "Clinician agreement", _agreement(raw)))
    if "settled_by" in raw.columns and raw["settled_by"].notna().any():
        out.append(("settled", "Settled readings", _settled(raw)))
    for anchor, title, body in (
            ("pushback", "Pushback: does the model hold its answer?", pushback_html(raw)),
            ("calibration", "Calibration: does the model know when it is unsure?",
             calibration_html(raw, _reliability_figure(raw) if figures else None))):
        if body:
            out.append((anchor, title, titled_section(anchor, title, body)))
    return out


def _reliability_figure(raw: pd.DataFrame) -> str:
    """The reliability diagram as a static image for the report (the Results tab draws it interactive)."""
    from probe_ui.metrics.calibration import reliability_frame
    from probe_ui.results.figures import plot_reliability

    return _figure_html(lambda: plot_reliability(reliability_frame(raw)),
                        "reliability diagram: accuracy per bin of stated confidence, 95 % CI")


def _settled(raw: pd.DataFrame) -> str:
    """Who settled which readings, how the clinicians agree with each other and with a judge model (issue 46)."""
    from probe_ui.review import judge_agreement, settler_agreement

    votes = [v for v in raw["settled_by"] if isinstance(v, dict)]
    who = sorted({w for v in votes for w in v})
    parts = [para(f"{len(votes)} repl{'y' if len(votes) == 1 else 'ies'} settled by {len(who)} clinician(s): "
                  f"{', '.join(w or '(unnamed)' for w in who)}. A clinician reads a reply the reader was not sure "
                  "of and says what it answers; with the parser 'settled' the latest settlement counts in every "
                  "figure.", "muted")]
    agreement = settler_agreement(raw)
    judge = judge_agreement(raw)
    rows = []
    for k in (agreement or {}).get("pairs", []):
        rows.append((f"{k['a']} and {k['b']}", k))
    if judge is not None:
        rows.append((f"judge {judge['judge']} and the clinicians", judge))
    if rows:
        parts.append(grid_table(["who", "kappa", "95 % CI", "replies both read"], [
            wrap("tr", el("th", name, scope="row") + el("td", num(k["kappa"], 2), class_="num strong")
                 + el("td", f"{num(k['ci'][0], 2)} to {num(k['ci'][1], 2)}" if k.get("ci") else "–", class_="num")
                 + el("td", k["n"], class_="num")) for name, k in rows], "grid kappa", 1)
                     + para("Cohen's kappa over the replies both read (\"no answer\" is a reading of its own); 1 = "
                            "perfect agreement, 0 = what chance gives; 95 % CI: percentile bootstrap over replies.",
                            "method"))
    disagreements = (agreement or {}).get("disagreements", [])
    if disagreements:
        items = "".join(el("li", f"answer #{d['response_id']} ({d['model']}, {d['item_id']}): "
                                 + "; ".join(f"{w}: {r}" for w, r in d["readings"].items())
                                 + f" — reply: {d['reply'][:300]}") for d in disagreements)
        parts.append(el("h3", "Read differently") + wrap("ul", items))
    return titled_section("settled", "Settled readings", "".join(parts))


def build_report(store: Store, run: str | None, baseline: str | None = None, parser: str = "robust",
                 definition: str = "auto", judge: str | None = None) -> str:
    """The HTML report of ``run`` (None: the most recently updated run), compared with the run named ``baseline``
    when given, every reply read by ``parser`` and the metric families under ``definition`` (as ``probe-ui score
    --parser P --definition D``). One self-contained document (module docstring); raises :class:`ReportError`
    for an unknown run or baseline. Stress and baseline deltas carry 95 % CIs by Newcombe's hybrid score method
    (two Wilson intervals). ``judge``: a fallback judge's model name, whose stored decisions replace "invalid" for
    the replies the rules cannot read (:mod:`probe_ui.fallback`)."""
    from probe_ui import results as R
    from probe_ui.store import run_variants

    r = _get_run(store, run)
    b = _get_run(store, baseline, "baseline run") if baseline else None
    if b is not None and b.id == r.id:
        raise ReportError(f"the baseline is the run itself ('{r.name}'): name another run with --baseline")
    raw, voted = _frames(store, r, parser, judge)
    tables = R.metric_tables(raw, parser, definition)
    report = {"items_not_loaded": len(store.item_errors(r.id)), "judge": judge}
    sections = [
        ("overview", "Overview", _overview(tables, raw, report)),
        ("papers", "Per-paper metrics", _papers(tables)),
        ("stress", "Stress test", _stress(raw, voted)),
    ]
    base_raw = None
    if b is not None:
        base_raw, base_voted = _frames(store, b, parser, judge)
        sections.append(("baseline", "Baseline", _baseline(b, voted, base_voted)))
        sections.append(("paired", "Paired comparison", _paired(store, b, r, parser)))
    extra = extra_sections(raw, b, base_raw)
    sections += extra
    sections += [
        ("plots", "Categories & confusion", _plots(voted)),
        ("worst", "Worst cases", _worst(store, voted)),
        ("provenance", "Provenance", _provenance(store, r, b)),
    ]
    nav = "<nav>" + "".join(f'<a href="#{a}">{esc(t)}</a>' for a, t, _ in sections) + "</nav>"
    head = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(_CSP)}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{esc('probe-ui report: ' + r.name)}</title><style>{_CSS}</style></head>\n")
    body = ("<body><main>" + _header(r, raw, store.count(run_variants, r.id), b, report, parser) + nav
            + "\n".join(html_ for _, _, html_ in sections) + "</main></body></html>\n")
    return head + body


def write_report(store: Store, run: str | None, out: Path, baseline: str | None = None, parser: str = "robust",
                 definition: str = "auto", judge: str | None = None, force: bool = False) -> Path:
    """Build the report (:func:`build_report`) and write it to ``out`` (:mod:`probe_ui.safe_write`: a temporary
    file beside it, then renamed; never over a device, FIFO or folder; over an existing file only with ``force``);
    the folder is created when missing. Returns ``out``. Raises :class:`ReportError` when the run or baseline is
    unknown, and :class:`probe_ui.safe_write.WriteError` when ``out`` cannot be written."""
    out = Path(out)
    what = "cannot write the report to"
    if out.exists() and out.is_dir():
        raise ReportError(f"{out} is a folder: give the report's file name, e.g. {out / 'report.html'}")
    try:  # before the work: something that must not be replaced, a folder that cannot be made, a dangling link
        check_target(out, force, what)
        output_file(out, what)
    except PathError as exc:
        raise ReportError(str(exc)) from None
    data = build_report(store, run, baseline, parser, definition, judge).encode("utf-8")
    try:
        write_bytes(out, data, force=force, what=what)
    except WriteError as exc:
        raise ReportError(str(exc)) from None
    return out
