"""The report's sections on single answers: clinician agreement, settled readings, the plots and the worst
cases."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from probe_ui.views.deltas import (
    worst_cases,
)
from probe_ui.views.markup import data_num, el, esc, grid_table, num, para, titled_section, wrap
from probe_ui.views.report.common import RAW_CHARS, THUMBS_PER_CASE, figure_html, short, thumbnail

if TYPE_CHECKING:  # pragma: no cover
    from probe_ui.store import Store

AGREEMENT_ROWS = 60  # overruled answers listed in the report


def agreement_section(raw: pd.DataFrame) -> str:
    from probe_ui.metrics.agreement import rater_agreement
    from probe_ui.views import results as R

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
                      + el("td", short(str(r["reply"] or ""), RAW_CHARS), class_="raw")
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


def plots_section(voted: pd.DataFrame) -> str:
    from probe_ui.views import results as R

    return titled_section("plots", "Categories and confusion",
                    el("h3", "Accuracy per category")
                    + figure_html(lambda: R.plot_category_heatmap(voted), "accuracy per category and model")
                    + el("h3", "Confusion: expected × parsed answer")
                    + figure_html(lambda: R.plot_confusion(voted), "confusion matrices, one per model"))


_STATE_MARK = {"right": "✓", "wrong": "✗", "invalid": "✗", "error": "!", "unknown": "?"}


def worst_section(store: Store, voted: pd.DataFrame) -> str:
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
        thumbs = "".join(thumbnail(store, i) for i in ids[:THUMBS_PER_CASE])
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
                shown += f" ({short(by_label[str(parsed)], 60)})"
            raw = short(str(a["raw"] or ""), RAW_CHARS)
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


def reliability_figure(raw: pd.DataFrame) -> str:
    """The reliability diagram as a static image for the report (the Results tab draws it interactive)."""
    from probe_ui.metrics.calibration import reliability_frame
    from probe_ui.views.results.figures import plot_reliability

    return figure_html(lambda: plot_reliability(reliability_frame(raw)),
                        "reliability diagram: accuracy per bin of stated confidence, 95 % CI")


def settled_section(raw: pd.DataFrame) -> str:
    """Who settled which readings, how the clinicians agree with each other and with a judge model (issue 46)."""
    from probe_ui.scoring.review import judge_agreement, settler_agreement
    from probe_ui.stats import ROUGH_UNITS

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
                 # (under ROUGH_UNITS replies the interval only reflects how few there are, as kappa_words says)
                 + el("td", f"{k['n']}, rough" if k["n"] < ROUGH_UNITS else k["n"], class_="num"))
                 for name, k in rows], "grid kappa", 1)
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
