"""Score figures as text: the table, Markdown and CSV that ``probe-ui score`` prints, the parser comparison
(``score --compare-parsers``) and the stress matrix (``probe-ui stress``).

Library functions of the score report (:func:`probe_ui.scoring.score_run`'s dict) and of the stress tables
(:mod:`probe_ui.views.stress`), so that the CLI, the app and the report can print the same figures the same way. The
per-paper sections come from :func:`probe_ui.views.results.paper_sections`, which the app's Results tab shows too.
"""

from __future__ import annotations

import io
import json
from typing import Any, cast

import pandas as pd

from probe_ui.files import spreadsheet
from probe_ui.security.redact import printable
from probe_ui.views.markup import md_cell
from probe_ui.views.results import is_metric, paper_sections


def format_score_table(report: dict[str, Any]) -> str:
    lines = [f"run '{printable(report['run'])}' (seed {report['seed']}): {report['variants']} variants"
             + (f"; {report['benchmark']}" if report.get("benchmark") else "")
             + (f"; parser {report['parser']}" if report.get("parser") else "")]
    if report["items_not_loaded"]:
        lines.append(f"{report['items_not_loaded']} items could not be loaded (see 'probe-ui batch' output)")
    header = f"{'model':<28} {'scored answers':>14} {'units of evidence':>17} {'accuracy':>9} {'95% CI':>15} " \
             f"{'random guess':>12} {'unreadable':>10} {'refused':>8} {'failed calls':>12}"
    lines += [header, "-" * len(header)]
    for model, r in report["models"].items():
        acc = r["accuracy"]
        val = f"{acc['value']:.2f}" if acc["value"] is not None else "-"
        ci = f"{acc['ci'][0]:.1f}-{acc['ci'][1]:.1f}" if acc["ci"] else "-"
        rnd = f"{acc['random']:.1f}" if acc["random"] is not None else "-"
        inv, ref = r["invalid_rate"]["value"], r["refusal_rate"]["value"]
        inv_s = f"{inv:.1f}%" if inv is not None else "-"
        ref_s = f"{ref:.1f}%" if ref is not None else "-"
        lines.append(f"{printable(model):<28} {r['n']:>14} {units_cell(acc):>17} {val:>9} {ci:>15} {rnd:>12} "
                     f"{inv_s:>10} {ref_s:>8} {r['errors']:>12}")
    if not report["models"]:
        lines.append("(no answers yet)")
    lines += interval_notes(report)
    lines += readings_lines(report)
    if report.get("judge"):
        lines.append(judge_line(report))
    lines += settled_agreement_lines(report)
    if report.get("harness_agreement"):
        from probe_ui.scoring.verdicts import agreement_lines

        lines += ["", *agreement_lines(report["harness_agreement"])]
    for section, rows, models in paper_sections(report):
        lines += ["", f"== {section} =="]
        width = max([len("metric")] + [len(m) for m, _ in rows])
        cols = [max([12, len(printable(m))] + [len(_cell(cells.get(m))) for _, cells in rows]) for m in models]
        lines.append(f"{'metric':<{width}}  " + "  ".join(f"{printable(m):>{w}}" for m, w in zip(models, cols)))
        lines.append("-" * (width + 2 + sum(w + 2 for w in cols)))
        for metric, cells in rows:
            lines.append(f"{metric:<{width}}  " + "  ".join(f"{_cell(cells.get(m)):>{w}}"
                                                             for m, w in zip(models, cols)))
    return "\n".join(lines)


def units_cell(acc: dict[str, Any]) -> str:
    """The units of evidence an accuracy counts ("16 items"), "-" where they were not counted."""
    from probe_ui.metrics.units import WORDS

    units = acc.get("units")
    if units is None or (isinstance(units, float) and units != units):
        return "-"
    units = int(units)
    one, many = WORDS.get(str(acc.get("unit") or "item"), ("unit", "units"))
    return f"{units} {one if units == 1 else many}"


def interval_notes(report: dict[str, Any]) -> list[str]:
    """Which interval the accuracies carry, in words, and which are rough (fewer than 10 units of evidence)."""
    from probe_ui.stats import ROUGH_UNITS, WILSON

    accs = {m: r["accuracy"] for m, r in report["models"].items() if r["accuracy"].get("units") is not None}
    if not accs:
        return []
    methods = sorted({str(a.get("method") or WILSON) for a in accs.values()})
    out = ["95% CI: " + "; ".join(methods) + " (probe-ui metrics --explain accuracy)"]
    rough = [f"{printable(m)} ({units_cell(a)})" for m, a in accs.items() if int(a["units"]) < ROUGH_UNITS]
    if rough:
        out.append("rough: fewer than 10 units of evidence: " + ", ".join(rough))
    return out


def readings_lines(report: dict[str, Any]) -> list[str]:
    """How the answers' readings were settled, per model (sure, the reader's best guess, settled by a clinician),
    and where to settle the guesses; nothing when the report does not count them."""
    rows = {m: r.get("readings") or {} for m, r in report["models"].items()}
    if not any(rows.values()):
        return []
    out = ["readings: sure / unsure (the reader's best guess) / settled by a clinician"]
    for model, c in rows.items():
        out.append(f"  {printable(model)}: {c.get('sure', 0)} sure, {c.get('unsure', 0)} unsure, "
                   f"{c.get('settled', 0)} settled")
    unsure = sum(c.get("unsure", 0) for c in rows.values())
    if unsure:
        used = " (used by --parser settled)" if report.get("parser") != "settled" else ""
        out.append(f"  settle the {unsure} unsure reading{'' if unsure == 1 else 's'} with 'probe-ui review "
                   f"{printable(report['run'])}' or the Results tab's 'To review'{used}")
    return out


def settled_agreement_lines(report: dict[str, Any]) -> list[str]:
    """How the clinicians who settled readings agree, and a judge model with them (kappa with n), in words."""
    block = report.get("settled_agreement") or {}
    if not block:
        return []
    from probe_ui.scoring.review import kappa_words

    out = [f"settled readings: {printable(k['a'])} and {printable(k['b'])}: {kappa_words(k)}" for k in
           (block.get("clinicians") or {}).get("pairs", [])]
    if block.get("judge"):
        out.append(f"judge {printable(block['judge']['judge'])} against the clinicians' settled readings: "
                   + kappa_words(block["judge"]))
    return out


def judge_line(report: dict[str, Any]) -> str:
    """How many answers the fallback judge decided, in all and per model (they are in the figures above)."""
    j = report["judge"]
    per = ", ".join(f"{printable(m)} {r.get('judged', 0)}" for m, r in report["models"].items())
    n = j["decided"]
    return (f"judge {printable(j['model'])} decided {n} answer{'' if n == 1 else 's'} the rules could not read "
            f"(counted above, method 'judge')" + (f": {per}" if per else ""))


def format_score_markdown(report: dict[str, Any]) -> str:
    lines = [f"**Run** `{printable(report['run'])}` (seed {report['seed']}, {report['variants']} variants"
             + (f", {report['benchmark']}" if report.get("benchmark") else "")
             + f", parser {report.get('parser', 'robust')})", "",
             "| model | scored answers | units of evidence | accuracy | 95% CI | random guess | unreadable | refused | "
             "failed calls |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for model, r in report["models"].items():
        acc = r["accuracy"]
        ci = f"{acc['ci'][0]:.1f}-{acc['ci'][1]:.1f}" if acc["ci"] else "-"
        lines.append(f"| {md_cell(printable(model))} | {r['n']} | {units_cell(acc)} | {_num(acc['value'])} | {ci} | "
                     f"{_num(acc['random'], 1)} | {_num(r['invalid_rate']['value'], 1)} | "
                     f"{_num(r['refusal_rate']['value'], 1)} | {r['errors']} |")
    if report["models"]:
        lines += ["", *(md_cell(x) for x in interval_notes(report) + readings_lines(report))]
    if report.get("judge"):
        lines += ["", md_cell(judge_line(report))]
    lines += [md_cell(x) for x in settled_agreement_lines(report)]
    if report.get("harness_agreement"):
        from probe_ui.scoring.verdicts import agreement_lines

        lines += ["", *(f"- {x}" if i else f"**{x.strip('= ')}**" for i, x in
                        enumerate(agreement_lines(report["harness_agreement"])))]
    for section, rows, models in paper_sections(report):
        lines += ["", f"### {section}", "", "| metric | " + " | ".join(md_cell(printable(m)) for m in models) + " |",
                  "|---|" + "---:|" * len(models)]
        for metric, cells in rows:
            lines.append(f"| {md_cell(metric)} | " + " | ".join(md_cell(_cell(cells.get(m))) for m in models) + " |")
    return "\n".join(lines)


def format_score_csv(report: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = spreadsheet.writer(buf, lineterminator="\n")
    w.writerow(["run", "parser", "model", "section", "metric", "value", "numerator", "denominator", "n", "ci_low",
                "ci_high", "units", "unit"])
    run, parser = report["run"], report.get("parser", "robust")
    for model, r in report["models"].items():
        for key in ("accuracy", "invalid_rate", "refusal_rate"):
            m = r[key]
            lo, hi = m["ci"] if m.get("ci") else ("", "")
            w.writerow([run, parser, model, "accuracy", key, m["value"], m["numerator"], m["denominator"], m["n"],
                        lo, hi, m.get("units", ""), m.get("unit", "")])
    for section, rows, models in paper_sections(report):
        for metric, cells in rows:
            for model in models:
                if model not in cells:
                    continue
                v = cells[model]
                if isinstance(v, dict):
                    lo, hi = v["ci"] if v.get("ci") else ("", "")
                    w.writerow([run, parser, model, section, metric, v.get("value"), v.get("numerator"),
                                v.get("denominator"), v.get("n"), lo, hi, v.get("units", ""), v.get("unit", "")])
                else:
                    w.writerow([run, parser, model, section, metric, v, "", "", "", "", "", "", ""])
    return buf.getvalue()


def _num(v: Any, digits: int = 2) -> str:
    return "-" if v is None else f"{v:.{digits}f}" if isinstance(v, (int, float)) and not isinstance(v, bool) \
        else str(v)


def _cell(v: Any) -> str:
    if is_metric(v):
        s = _num(v.get("value"))
        num, den = v.get("numerator"), v.get("denominator")
        if isinstance(num, (int, float)) and isinstance(den, (int, float)):
            s += f" ({num:g}/{den:g})"
        return s
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def accuracy_pairs(robust: dict[str, Any], legacy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for model, r in robust["models"].items():
        lg = legacy["models"].get(model, {}).get("accuracy", {})
        out[model] = {"robust": r["accuracy"]["value"], "legacy": lg.get("value")}
    return out


def format_parser_differences(robust: dict[str, Any], legacy: dict[str, Any], diffs: list[dict[str, Any]],
                              fmt: str = "table") -> str:
    """The --compare-parsers output: accuracy under both parsers, then every reply read differently."""
    def reading(r: dict[str, Any]) -> str:
        c = r["choice"] if r["choice"] is not None else "invalid"
        ok = {True: "right", False: "wrong", None: "unscored"}[r["correct"]]
        return f"{c} ({r['method']}; {ok})"

    def text(d: dict[str, Any], limit: int | None = 120) -> str:
        t = (d["raw_text"] or "").replace("\n", "\\n")
        return t if limit is None or len(t) <= limit else t[: limit - 1] + "…"

    acc = accuracy_pairs(robust, legacy)
    if fmt == "csv":
        buf = io.StringIO()
        w = spreadsheet.writer(buf, lineterminator="\n")
        w.writerow(["model", "item_id", "variant_id", "sample", "gt", "gt_raw", "legacy_mode", "robust_choice",
                    "robust_method", "robust_correct", "legacy_choice", "legacy_method", "legacy_correct", "right",
                    "raw_text"])
        for d in diffs:
            r, g = d["robust"], d["legacy"]
            w.writerow([d["model"], d["item_id"], d["variant_id"], d["sample"], d["gt"], d["gt_raw"],
                        d["legacy_mode"], r["choice"], r["method"], r["correct"], g["choice"], g["method"],
                        g["correct"], d["right"], d["raw_text"]])
        return buf.getvalue().rstrip("\n")
    head = [f"run '{robust['run']}'" + (f" ({robust['benchmark']})" if robust.get("benchmark") else "")
            + f": {len(diffs)} replies read differently by the robust and the legacy parser"]
    for model, a in acc.items():
        head.append(f"  {model}: accuracy robust {_num(a['robust'])}, legacy {_num(a['legacy'])}")
    if fmt == "markdown":
        lines = [*head, "", "| model | item | gt | robust | legacy | right | reply |", "|---|---|---|---|---|---|---|"]
        for d in diffs:
            lines.append(f"| {md_cell(d['model'])} | {md_cell(d['item_id'])} | "
                         f"{md_cell(str(d['gt_raw'] or d['gt']))} | "
                         f"{md_cell(reading(d['robust']))} | {md_cell(reading(d['legacy']))} | {d['right']} | "
                         f"{md_cell(repr(text(d)))} |")
        return "\n".join(lines)
    lines = head
    for d in diffs:
        lines += ["", f"{d['model']} on {d['item_id']} (gt {d['gt_raw'] or d['gt']!s}; right: {d['right']})",
                  f"  reply : {text(d)!r}", f"  robust: {reading(d['robust'])}",
                  f"  legacy: {reading(d['legacy'])}  [{d['legacy_mode']}]"]
    return "\n".join(lines)


def stress_json(name: str, suite: str, parser: str, table: pd.DataFrame, summary: pd.DataFrame) -> str:
    """``probe-ui stress --json``: the run, its variants x models matrix and its per-model summary."""
    from probe_ui.scoring import jsonable

    return json.dumps(jsonable({"run": name, "suite": suite, "parser": parser,
                                "matrix": [{"item_id": i, "condition": c, **row} for (i, c), row in
                                           cast(dict[tuple[str, str], dict[str, Any]], table.to_dict("index")).items()],
                                "summary": summary.to_dict("records")}), indent=2)


def format_stress_table(name: str, table: pd.DataFrame, summary: pd.DataFrame) -> str:
    """``probe-ui stress``: the variants x models matrix, then the summary with models as columns."""
    from probe_ui.views import stress

    lines = [f"run '{name}': {len(table)} variants x {len(table.columns)} models "
             f"(✓ right, ✗ wrong, invalid, error; the letter is the answer read)"]
    with pd.option_context("display.max_rows", 400, "display.max_columns", 50, "display.width", 200,
                           "display.max_colwidth", 40):
        people = figures_by_model(stress.summary_for_people(summary))
        lines += [table.to_string(), "", people.to_string()]
        if (people == "n/a").any().any():
            lines.append("n/a: nothing to count for this model (e.g. no pair of an original and a variant both scored)")
    return "\n".join(lines)


def figures_by_model(people: Any) -> Any:
    """A per-model summary turned to one row per figure and one column per model, as text cells: counts as whole
    numbers (a transposed table would otherwise print them as 6.0), rates with one decimal, and an undefined rate
    (nothing to count) as "n/a", not NaN."""
    import math

    import pandas as pd

    from probe_ui.metrics.registry import find_figure

    table = people.set_index("model").T

    def cell(label: Any, x: Any) -> str:
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return "n/a"
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            found = find_figure(str(label))
            return f"{int(round(x)):,}" if found is not None and not found.percent else f"{x:.1f}"
        return str(x)

    return pd.DataFrame([[cell(label, x) for x in row] for label, row in table.iterrows()], index=table.index,
                        columns=table.columns)
