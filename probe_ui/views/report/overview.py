"""The report's header, overview and per-paper metric tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import pandas as pd

from probe_ui.labels import when
from probe_ui.metrics import figures as F
from probe_ui.metrics.frame import value_or_none
from probe_ui.views.markup import data_num, el, esc, grid_table, num, para, titled_section, wrap

if TYPE_CHECKING:  # pragma: no cover
    from probe_ui.store import Run



def header_section(run: Run, raw: pd.DataFrame, n_variants: int, baseline: Run | None, report: dict[str, Any],
            parser: str) -> str:
    models = sorted({str(m) for m in raw["model"]}) if len(raw) else []
    errors = int(raw["error"].notna().sum()) if len(raw) else 0
    facts = [("created", when(run.created_at, full=True)), ("updated", when(run.updated_at, full=True)),
             ("seed", run.seed), ("variants", n_variants),
             ("answers", f"{len(raw)}" + (f" ({errors} errors)" if errors else "")), ("models", len(models))]
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


def overview_section(tables: dict[str, pd.DataFrame], raw: pd.DataFrame, report: dict[str, Any]) -> str:
    ov = tables["overview"]
    if ov.empty:
        return titled_section("overview", "Overview", para("No answers yet."))
    rows = []
    for r in ov.to_dict("records"):
        g = raw[raw["model"] == r["model"]] if len(raw) else raw
        lat = g["latency_s"].dropna() if len(g) else pd.Series(dtype=float)
        cost = g["cost"].dropna().sum() if len(g) else 0.0
        ci = f"{num(r['ci_low'], 1)}–{num(r['ci_high'], 1)}" if value_or_none(r["ci_low"]) is not None else "–"
        from probe_ui.views.score_text import units_cell

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
    from probe_ui.views.score_text import interval_notes

    notes = interval_notes({"models": {r["model"]: {"accuracy": r} for r in ov.to_dict("records")
                                       if value_or_none(r.get("units")) is not None}})
    return titled_section("overview", "Overview", grid_table(head, rows, "grid overview") + glossary(head)
                    + "".join(para(x, "method") for x in notes) + para("The numbers of 'probe-ui score'.", "muted"))


def glossary(labels: Sequence[str], family: str | None = None) -> str:
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


def papers_section(tables: dict[str, pd.DataFrame]) -> str:
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
