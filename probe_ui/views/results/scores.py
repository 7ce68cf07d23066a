"""The score tables the Results tab shares with ``probe-ui score``: the overview and one table per metric family
(:func:`metric_tables`, rounded figures for people, the families' HTML), all through
:func:`probe_ui.scoring.score_frame`, so the numbers are the CLI's."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend

    pass


# ---- score tables shared with ``probe-ui score`` ------------------------------------------------------------------

def is_metric(d: Any) -> bool:
    """A metric leaf of a score report: a dict with a scalar ``value`` (and numerator, denominator, n, ...)."""
    return isinstance(d, dict) and "value" in d and not isinstance(d.get("value"), (dict, list))


def metric_leaves(obj: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every leaf of a nested metric dict as (dotted path, leaf); lists (raw per-item data) are left out."""
    if is_metric(obj) or isinstance(obj, (int, float, str, bool)) or obj is None:
        return [(prefix or "value", obj)]
    out: list[tuple[str, Any]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += metric_leaves(v, f"{prefix}.{k}" if prefix else str(k))
    return out  # lists (e.g. raw per-item data) are left to --json


def paper_sections(report: dict[str, Any]) -> list[tuple[str, list[tuple[str, dict[str, Any]]], list[str]]]:
    """The per-paper metrics of every model as sections of (metric path, {model: leaf}) rows; a leaf is a number
    or a metric dict (value, numerator, denominator, n, ...)."""
    sections: dict[str, dict[str, dict[str, Any]]] = {}
    models: dict[str, list[str]] = {}
    for model, r in report["models"].items():
        paper = r.get("paper") or {}
        if not isinstance(paper, dict) or not paper:
            continue
        tops = paper.items() if all(isinstance(v, dict) for v in paper.values()) else [("paper", paper)]
        for section, body in tops:
            if section == "detected":  # which families were found, and why: in --json
                continue
            rows = sections.setdefault(str(section), {})
            models.setdefault(str(section), []).append(model)
            for path, leaf in metric_leaves(body, ""):
                rows.setdefault(path, {})[model] = leaf
    return [(s, list(rows.items()), models[s]) for s, rows in sections.items()]


def metric_tables(df: pd.DataFrame, parser: str = "robust", definition: str = "auto", digits: int | None = 2
                  ) -> dict[str, pd.DataFrame]:
    """``overview`` (one row per run x model) and one long table per metric family, from a scored-answer table
    (:func:`probe_ui.scoring.scored_answers`, filtered or not): each run's rows go through
    :func:`probe_ui.scoring.score_frame`, the numbers ``probe-ui score --parser PARSER`` prints for the same
    rows, only rounded to ``digits`` (None: unrounded). Percent columns: accuracy, ci_low, ci_high, random,
    invalid, refusal (overview) and value, ci_low, ci_high, random (families, where the leaf is a metric)."""
    from probe_ui.scoring import score_frame

    overview: list[dict[str, Any]] = []
    families: dict[str, list[dict[str, Any]]] = {}
    for name, g in (df.groupby("run", sort=False) if len(df) else []):
        report = dict(score_frame(g, parser, definition), run=str(name))
        overview += _overview_rows(report, digits)
        for section, rows in _family_rows(report, digits).items():
            families.setdefault(section, []).extend(rows)
    out = {"overview": pd.DataFrame(overview, columns=_OVERVIEW_COLUMNS)}
    for section, rows in families.items():
        out[section] = pd.DataFrame(rows, columns=_FAMILY_COLUMNS)
    return out


_OVERVIEW_COLUMNS = ["run", "model", "n", "accuracy", "ci_low", "ci_high", "random", "invalid", "refusal", "answered",
                     "errors", "units", "unit", "method"]
_FAMILY_COLUMNS = ["run", "model", "metric", "value", "numerator", "denominator", "n", "ci_low", "ci_high", "random"]


def _round(v: Any, digits: int | None) -> Any:
    if digits is None or isinstance(v, bool) or not isinstance(v, float):
        return v
    return round(v, digits)


def _ci(m: dict[str, Any]) -> tuple[Any, Any]:
    ci = m.get("ci")
    return (ci[0], ci[1]) if isinstance(ci, (list, tuple)) and len(ci) == 2 else (None, None)


def _overview_rows(report: dict[str, Any], digits: int | None) -> list[dict[str, Any]]:
    rows = []
    for model, r in report["models"].items():
        acc = r["accuracy"]
        lo, hi = _ci(acc)
        rows.append({"run": report["run"], "model": model, "n": r["n"], "accuracy": _round(acc["value"], digits),
                     "ci_low": _round(lo, digits), "ci_high": _round(hi, digits),
                     "random": _round(acc.get("random"), digits),
                     "invalid": _round(r["invalid_rate"]["value"], digits),
                     "refusal": _round(r["refusal_rate"]["value"], digits),
                     "answered": r["answered"], "errors": r["errors"], "units": acc.get("units"),
                     "unit": acc.get("unit"), "method": acc.get("method")})
    return rows


def _family_rows(report: dict[str, Any], digits: int | None) -> dict[str, list[dict[str, Any]]]:
    """Each section of :func:`paper_sections` as rows, model by model, metrics in the report's order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for section, rows, models in paper_sections(report):
        table = out.setdefault(section, [])
        for model in models:
            for metric, cells in rows:
                if model in cells:
                    table.append(_leaf_row(report["run"], model, metric, cells[model], digits))
    return out


def _leaf_row(run: str, model: str, metric: str, leaf: Any, digits: int | None) -> dict[str, Any]:
    row: dict[str, Any] = {"run": run, "model": model, "metric": metric}
    if is_metric(leaf):
        lo, hi = _ci(leaf)
        row.update(value=_round(leaf.get("value"), digits), numerator=leaf.get("numerator"),
                   denominator=leaf.get("denominator"), n=leaf.get("n"), ci_low=_round(lo, digits),
                   ci_high=_round(hi, digits), random=_round(leaf.get("random"), digits))
    else:
        row["value"] = _round(leaf, digits)
    return row


# ---- tables for people ---------------------------------------------------------------------------------------------

def figure_text(leaf: Any, digits: int = 1) -> str:
    """A metric leaf as a person reads it: "72.5 % [61.2–81.4] n=40" (CI and n where the leaf has them); where
    its answers were counted in units of evidence, "50.0 % [23.9–76.1] n = 8 pairs (656 answers)", and "rough"
    under 10 units (:mod:`probe_ui.metrics.units`)."""
    if is_metric(leaf):
        v = leaf.get("value")
        if v is None:
            return "–"
        text = f"{v:.{digits}f} %"
        ci = leaf.get("ci")
        if isinstance(ci, (list, tuple)) and len(ci) == 2 and None not in ci:
            text += f" [{ci[0]:.{digits}f}–{ci[1]:.{digits}f}]"
        if leaf.get("units") is not None and leaf.get("n") is not None:
            from probe_ui.metrics.units import counted
            from probe_ui.stats import ROUGH_UNITS

            text += " " + counted(int(leaf["units"]), int(leaf["n"]), str(leaf.get("unit") or "item"))
            if int(leaf["units"]) < ROUGH_UNITS:
                text += ", rough"
        elif leaf.get("n") is not None:
            text += f" n={int(leaf['n'])}"
        return text
    if isinstance(leaf, bool) or leaf is None:
        return "–" if leaf is None else str(leaf)
    if isinstance(leaf, (int, float)):
        return f"{leaf:.{digits}f}" if isinstance(leaf, float) else str(leaf)
    return str(leaf)


def run_reports(df: pd.DataFrame, parser: str = "robust", definition: str = "auto") -> list[tuple[str, dict[str, Any]]]:
    """Each run's score report (:func:`probe_ui.scoring.score_frame` over its rows), in the table's order: the one
    scoring pass that the overview and the families of one view share (each made its own, twice the time)."""
    from probe_ui.scoring import score_frame

    return [(str(run), score_frame(g, parser, definition))
            for run, g in (df.groupby("run", sort=False) if len(df) else [])]


def overview_for_people(df: pd.DataFrame, parser: str = "robust", definition: str = "auto", *,
                        reports: list[tuple[str, dict[str, Any]]] | None = None) -> pd.DataFrame:
    """One row per run and model: accuracy with its 95 % CI and n, the random-guess reference, invalid and
    refusal rates and failed calls, in words and rounded (the numbers of :func:`metric_tables`). ``reports``:
    :func:`run_reports` of ``df`` when the caller has them already."""
    from probe_ui.metrics import figures as F

    rows = []
    for run, report in (reports if reports is not None else run_reports(df, parser, definition)):
        for model, r in report["models"].items():
            acc = r["accuracy"]
            rows.append({"run": run, "model": model, F.ACCURACY: figure_text(acc),
                         F.RANDOM: f"{acc['random']:.1f} %" if acc.get("random") is not None else "–",
                         F.UNREADABLE: figure_text(r["invalid_rate"]["value"]) + " %"
                         if r["invalid_rate"]["value"] is not None else "–",
                         F.REFUSED: figure_text(r["refusal_rate"]["value"]) + " %"
                         if r["refusal_rate"]["value"] is not None else "–",
                         F.FAILED: r["errors"], F.READINGS: readings_words(r.get("readings") or {})})
    return pd.DataFrame(rows, columns=OVERVIEW_PEOPLE_COLUMNS)


#: the Results overview's columns: run, model, then registered figures (probe_ui.metrics.figures)
OVERVIEW_PEOPLE_COLUMNS = ["run", "model", "accuracy", "random guess", "unreadable", "refused", "failed calls",
                           "readings"]


def readings_words(counts: dict[str, int]) -> str:
    """How a model's readings were settled, in words ("40 sure, 3 unsure, 2 settled"; "–" when not counted)."""
    if not counts:
        return "–"
    return f"{counts.get('sure', 0)} sure, {counts.get('unsure', 0)} unsure, {counts.get('settled', 0)} settled"


def families_html(df: pd.DataFrame, parser: str = "robust", definition: str = "auto", *,
                  reports: list[tuple[str, dict[str, Any]]] | None = None) -> str:
    """Every metric family with data, compact like the report's: a table of model rows and the family's headline
    figures (value, 95 % CI, n), its full metric list folded underneath. Text is escaped. ``reports``:
    :func:`run_reports` of ``df`` when the caller has them already."""
    from probe_ui.metrics import FAMILIES, headlines
    from probe_ui.metrics.registry import glossary_html

    blocks: dict[str, list[tuple[str, str, dict[str, Any], dict[str, Any]]]] = {}
    for run, report in (reports if reports is not None else run_reports(df, parser, definition)):
        for model, r in report["models"].items():
            paper = r.get("paper") or {}
            for fam, heads in headlines(paper).items():
                blocks.setdefault(fam, []).append((str(run), model, heads, paper[fam]))
    if not blocks:
        return "<p><i>No paper metric applies to these answers.</i></p>"
    several_runs = df["run"].nunique() > 1
    parts = []
    for fam, rows in blocks.items():
        cols = list(dict.fromkeys(k for _, _, heads, _ in rows for k in heads))
        definition_used = rows[0][3].get("definition", "")
        head = ("<tr>" + ("<th>run</th>" if several_runs else "") + "<th>model</th>"
                + "".join(f"<th>{html.escape(c)}</th>" for c in cols) + "</tr>")
        body = "".join("<tr>" + (f"<td>{html.escape(run)}</td>" if several_runs else "")
                       + f"<th scope='row'>{html.escape(model)}</th>"
                       + "".join(f"<td class='num'>{html.escape(figure_text(heads.get(c)))}</td>" for c in cols)
                       + "</tr>" for run, model, heads, _ in rows)
        details = "".join(
            f"<h5>{html.escape(model)}</h5><table class='pu-fam-detail'>"
            + "".join(f"<tr><td>{html.escape(path)}</td><td class='num'>{html.escape(figure_text(leaf))}</td></tr>"
                      for path, leaf in metric_leaves({k: v for k, v in block.items() if k != "definition"}))
            + "</table>" for _, model, _, block in rows)
        desc = FAMILIES[fam].description if fam in FAMILIES else ""
        parts.append(f"<div class='pu-family' data-family='{html.escape(fam, quote=True)}'>"
                     f"<h4>{html.escape(family_title(fam))} <small>({html.escape(definition_used)} definition)"
                     "</small></h4>"
                     f"<p class='pu-meta'>{html.escape(desc)}</p><table class='pu-fam'>{head}{body}</table>"
                     f"{glossary_html(cols, fam)}"
                     f"<details><summary>every figure of {html.escape(family_title(fam))}</summary>{details}"
                     "</details></div>")
    return "".join(parts)


def family_title(fam: str) -> str:
    """A metric family as a heading reads (its description up to the colon: "MediConfusion", "Illusion of
    Readiness T1-T5", "consistency over the variants of one item"), not its registry key."""
    from probe_ui.metrics import FAMILIES

    desc = FAMILIES[fam].description if fam in FAMILIES else ""
    title = desc.split(":")[0].strip()
    return title[:1].upper() + title[1:] if title else fam.replace("_", " ")
