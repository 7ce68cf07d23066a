"""A paired comparison (:func:`probe_ui.views.compare.compare`) as text and tables: what ``probe-ui compare`` prints and
what the Results tab and the report show, from one set of functions so the three read alike."""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.security.redact import printable


def _num(x: Any, digits: int = 1, signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _p(p: Any) -> str:
    if p is None:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _ci(ci: Any) -> str:
    return f"{_num(ci[0], signed=True)} to {_num(ci[1], signed=True)}" if ci else "–"


def groups_frame(rows: list[dict[str, Any]], by: str) -> pd.DataFrame:
    """Per perturbation (``by="condition"``) or category: n and the units of evidence they come in, both
    accuracies, B - A with its CI, fixed, broke and the paired test's p-value, raw and Holm-adjusted; in words a
    clinician reads."""
    from probe_ui.views.score_text import units_cell

    label = {"condition": "perturbation", "category": "category"}[by]
    return pd.DataFrame([{
        label: r.get("what", r[by]), "questions": r["n"],
        "units of evidence": units_cell(r) if r.get("units") != r["n"] else "-", "A accuracy %": _num(r["accuracy_a"]),
        "B accuracy %": _num(r["accuracy_b"]), "B − A (points)": _num(r["difference"], signed=True),
        "95 % CI": _ci(r["ci"]), "B fixed": r["fixed"], "B broke": r["broke"], "p": _p(r["p_value"]),
        "p (Holm)": _p(r.get("p_holm")),
    } for r in rows], columns=[label, "questions", "units of evidence", "A accuracy %", "B accuracy %",
                               "B − A (points)", "95 % CI",
                               "B fixed", "B broke", "p", "p (Holm)"])


def paper_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Per paper metric's headline figure: A, B, B - A and the paired bootstrap interval."""
    return pd.DataFrame([{
        "metric": f"{r['family']}: {r['figure']}", "A": _num(r["a"]), "B": _num(r["b"]),
        "B − A": _num(r["difference"], signed=True), "95 % CI (paired bootstrap)": _ci(r["ci"]),
    } for r in rows], columns=["metric", "A", "B", "B − A", "95 % CI (paired bootstrap)"])


def _answer(reply: dict[str, Any], limit: int | None) -> str:
    """The answer in words, then the reply itself where it says more than the answer."""
    text = " ".join(str(reply.get("text") or "").split())
    if limit and len(text) > limit:
        text = text[:limit - 1] + "…"
    shown = reply.get("answer") or "no answer could be read"
    return shown if text.strip(" .").lower() in ("", str(reply.get("parsed") or "").lower()) \
        else f"{shown} (“{text}”)"


def flips_frame(c: dict[str, Any], limit: int | None = 160) -> pd.DataFrame:
    """Every flipped question, both ways, with both replies and their answer numbers (to open them)."""
    rows = []
    for which, words in (("fixed", "B fixed"), ("broke", "B broke")):
        for f in c[which]:
            rows.append({"change": words, "item": f["item_id"], "perturbation": f.get("what", f["condition"]),
                         "right answer": f.get("right_answer"), "A answered": _answer(f["a"], limit),
                         "B answered": _answer(f["b"], limit), "A answer #": f["a"]["response_id"],
                         "B answer #": f["b"]["response_id"]})
    return pd.DataFrame(rows, columns=["change", "item", "perturbation", "right answer", "A answered", "B answered",
                                       "A answer #", "B answer #"])


def _table(df: pd.DataFrame) -> str:
    if df.empty:
        return "  (none)"
    cells = [list(map(str, df.columns))] + [[str(v) for v in row] for row in df.itertuples(index=False)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(df.columns))]
    return "\n".join("  " + "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in cells)


def text(c: dict[str, Any], flips: int = 10) -> str:
    """The whole comparison for a terminal: the summary, what differs, the tables, and the first flips."""
    from probe_ui.views.compare import summary

    # the names as printed (control characters escaped, cut to a sane length); the JSON keeps them whole
    a, b = ({**c[k], "model": printable(c[k]["model"]), "run": printable(c[k]["run"])} for k in ("a", "b"))
    o, mt = c["overall"], c["matching"]
    lines = [f"A: {a['model']} in run '{a['run']}'", f"B: {b['model']} in run '{b['run']}'",
             f"parser {c['parser']}, metric definitions {c['definition']}", "", summary({**c, "a": a, "b": b}), ""]
    if c["differences"]:
        lines += ["What differs between A and B: " + "; ".join(c["differences"]), ""]
    lines += [f"Shared questions {mt['shared']}, compared {mt['compared']}; only in A {mt['only_a']}, only in B "
              f"{mt['only_b']}; without a reply {mt['no_reply']} (A {mt['no_reply_a']}, B {mt['no_reply_b']}); "
              f"without a known right answer {mt['no_ground_truth']}."]
    for side in ("a", "b"):
        ex = mt[f"only_{side}_examples"]
        if ex:
            lines.append(f"  only in {side.upper()}: " + ", ".join(f"{e['item_id']} ({e['condition']})" for e in ex)
                         + (" …" if mt[f"only_{side}"] > len(ex) else ""))
    lines += ["", f"Overall: A {_num(o['accuracy_a'])} %, B {_num(o['accuracy_b'])} %, B − A "
                  f"{_num(o['difference'], signed=True)} points (95 % CI {_ci(o['ci'])}, {interval_words(o)}); both "
                  f"right {o['both_right']}, B fixed {o['fixed']}, B broke {o['broke']}, both wrong "
                  f"{o['both_wrong']}; {o.get('test') or 'exact McNemar test'} p {_p(o['p_value'])}"]
    lines += ["", "Per perturbation (p-values Holm-adjusted across perturbations):",
              _table(groups_frame(c["by_condition"], "condition"))]
    lines += ["", "Per category (p-values Holm-adjusted across categories):",
              _table(groups_frame(c["by_category"], "category"))]
    if c["paper"]:
        lines += ["", f"Paper metrics on the shared questions (B − A, paired bootstrap, {c['paper'][0]['n_boot']} "
                      "resamples):", _table(paper_frame(c["paper"]))]
    fl = flips_frame(c, limit=80)
    if len(fl) and flips:
        shown = fl.groupby("change", sort=False).head(flips)
        lines += ["", f"Flipped questions (first {flips} each way; --json lists them all, the app opens them):",
                  _table(shown.drop(columns=["A answer #", "B answer #"]))]
    return "\n".join(lines)


def interval_words(o: dict[str, Any]) -> str:
    """Which interval a paired difference carries, in words: Newcombe's paired one, over the units of evidence
    where the questions come in fewer units than questions."""
    from probe_ui.metrics.units import WORDS

    units, n = o.get("units"), o.get("n")
    if units is None or units == n:
        return "Newcombe's paired interval"
    many = WORDS.get(str(o.get("unit") or "item"), ("unit", "units"))[1]
    return (f"Newcombe's paired interval over {units} {many} (the table divided by the design effect "
            f"{float(o.get('deff') or 1):.1f})")


def view(c: dict[str, Any]) -> tuple[str, pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """What the Results tab shows of a comparison: the summary in words (with what differs and what was left out),
    then the per-perturbation, per-category, paper-metric and flipped-question tables."""
    mt = c["matching"]
    lines = [f"**A:** {c['a']['model']} in run {c['a']['run']} · **B:** {c['b']['model']} in run {c['b']['run']}",
             "", c["summary"]]
    if c["differences"]:
        lines += ["", "What differs between A and B: " + "; ".join(c["differences"])]
    for side in ("a", "b"):
        ex = mt[f"only_{side}_examples"]
        if ex:
            lines += ["", f"Only in {side.upper()} (not compared): " + ", ".join(
                f"{e['item_id']} ({e['condition']})" for e in ex) + (" …" if mt[f"only_{side}"] > len(ex) else "")]
    o = c["overall"]
    lines += ["", "Fixed: B right where A was wrong; broke: A right where B is wrong. p: how often a difference "
                  f"this large arises by chance ({o.get('test') or 'exact McNemar test'}); p (Holm): adjusted for "
                  f"testing every row at once. The interval is {interval_words(o)}, of B − A."]
    return ("\n".join(lines), groups_frame(c["by_condition"], "condition"), groups_frame(c["by_category"], "category"),
            paper_frame(c["paper"]), flips_frame(c))
