"""Interactive figures (Plotly) for the app's Results and Stress tabs.

The HTML report keeps its self-contained matplotlib figures (:mod:`probe_ui.views.results`); the app shows these
instead, because a person at a screen needs what a printed page cannot give:

- hover on any point shows the model, the condition in words, the accuracy with its 95 % CI and n;
- 50+ conditions stay readable: one row per condition (horizontal), grouped by perturbation family (or worst
  first), the figure as tall as its rows need, so labels keep their full size and the page scrolls;
- markers of several models on one condition are set side by side, and curves of several models differ by marker
  and dash and are offset a little, so that two models with the same score never hide each other.

Every builder takes the tables of :mod:`probe_ui.views.results` (which count exactly what ``probe-ui score`` counts) and
returns a ``plotly.graph_objects.Figure``; an empty table gives a figure that says why there is nothing to plot.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:  # pragma: no cover - hints only
    import plotly.graph_objects as go

ORIGINAL = "original"
#: marker shapes and line dashes cycled per model: colour is never the only thing that tells two models apart
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "star", "triangle-down", "pentagon",
           "hexagon")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
#: a colour-blind-safe palette (Okabe-Ito), dark enough on white for WCAG AA graphics (3:1)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8B6C00", "#7A3E9D",
           "#4D4D4D")
ROW_PX = 26  # height of one condition row: a 13 px label with air around it
SORTS = {"family": "grouped by perturbation family", "worst": "worst accuracy first"}
FONT = {"size": 14}


_TEMPLATE: dict[str, Any] = {}


def _figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """A Figure from plain trace and layout dicts, written in plotly.js's own full form (``title`` as
    ``{"text": ...}``), so that Plotly's per-property validation, which took a second per view of a large run, is
    skipped; the white template is filled in once."""
    import plotly.graph_objects as go

    if not _TEMPLATE:
        import plotly.io as pio

        _TEMPLATE.update(pio.templates["plotly_white"].to_plotly_json())
    return go.Figure({"data": data, "layout": {"template": _TEMPLATE, "font": FONT, **layout}}, _validate=False)


def _title(text: str) -> dict[str, Any]:
    return {"text": text}


def empty_figure(message: str = "no answers") -> go.Figure:
    """A small figure that says why there is nothing to plot."""
    return _figure([], {"height": 220, "xaxis": {"visible": False}, "yaxis": {"visible": False},
                        "margin": {"l": 20, "r": 20, "t": 20, "b": 20},
                        "annotations": [{"text": message, "x": 0.5, "y": 0.5, "xref": "paper", "yref": "paper",
                                         "showarrow": False, "font": {"size": 16, "color": "#555"}}]})


def _style(k: int) -> dict[str, Any]:
    return {"color": COLOURS[k % len(COLOURS)], "symbol": SYMBOLS[k % len(SYMBOLS)],
            "dash": DASHES[k % len(DASHES)]}


def _ordered_conditions(table: pd.DataFrame, sort: str) -> list[tuple[str, str, str]]:
    """(family, condition, words) of every condition (:func:`probe_ui.conditions.family`), top to bottom: the
    original first, then by family and condition (``sort="family"``), or by the mean accuracy over models, lowest
    first (``sort="worst"``)."""
    from probe_ui.conditions import family

    words = dict(zip(table["condition"].astype(str), table["what was done"].astype(str)))
    mean = table.groupby(table["condition"].astype(str))["accuracy"].mean()
    rows = [(family(c), c, words[c]) for c in words]
    if sort == "worst":
        rows.sort(key=lambda r: (r[1] != ORIGINAL, float(mean.get(r[1], math.nan)), r[2]))
    else:
        rows.sort(key=lambda r: (r[1] != ORIGINAL, r[0], r[2]))
    return rows


def _hover(model_label: str) -> str:
    return ("<b>%{customdata[0]}</b><br>" + model_label + "<br>accuracy %{customdata[1]:.1f} %"
            " (95 % CI %{customdata[2]:.1f}–%{customdata[3]:.1f})<br>n = %{customdata[4]} answers, "
            "%{customdata[5]} right<extra></extra>")


def accuracy_by_condition(table: pd.DataFrame, sort: str = "family") -> go.Figure:
    """Accuracy per condition and model (``table`` from :func:`probe_ui.views.results.accuracy_by_condition`): one row
    per condition in words, grouped under its perturbation family (``sort="family"``) or worst first
    (``sort="worst"``); a marker per model with its 95 % CI as a bar, models side by side within a row."""
    if table is None or table.empty:
        return empty_figure()
    if sort not in SORTS:
        raise ValueError(f"unknown order '{sort}'; expected one of {', '.join(SORTS)}")
    rows = _ordered_conditions(table, sort)
    by_family = sort == "family" and len({f for f, _, _ in rows}) > 1
    index = {c: i for i, (_, c, _) in enumerate(rows)}
    models = sorted(table["model"].astype(str).unique())
    data = []
    for k, model in enumerate(models):
        t = table[table["model"].astype(str) == model].copy()
        t = t.assign(_o=t["condition"].astype(str).map(index)).sort_values("_o")
        fam = [rows[i][0] for i in t["_o"]]
        words = [rows[i][2] for i in t["_o"]]
        y = [fam, words] if by_family else words
        st = _style(k)
        acc = t["accuracy"].astype(float)
        lo, hi = t["ci_low"].astype(float), t["ci_high"].astype(float)
        data.append({
            "type": "scatter", "x": acc.tolist(), "y": y, "mode": "markers", "orientation": "h", "name": model,
            "offsetgroup": model,
            "legendgroup": model,
            "marker": {"color": st["color"], "symbol": st["symbol"], "size": 10, "line": {"width": 1, "color": "#222"}},
            "error_x": {"type": "data", "symmetric": False, "array": (hi - acc).clip(lower=0).tolist(),
                        "arrayminus": (acc - lo).clip(lower=0).tolist(), "color": st["color"], "thickness": 1.5,
                        "width": 4},
            "customdata": [list(r) for r in zip(words, acc.tolist(), lo.tolist(), hi.tolist(),
                                                t["n"].astype(int).tolist(), t["correct"].astype(int).tolist())],
            "hovertemplate": _hover(_esc(model))})
    n = len(rows)
    legend_lines = math.ceil(len(models) / 3)  # a narrow screen (a projector at 125 %) fits about three a line
    top = 96 + 24 * legend_lines
    height = max(320, ROW_PX * n * (1 + 0.25 * (len(models) - 1)) + top + 30)
    return _figure(data, {
        "height": int(height), "scattermode": "group", "scattergap": 0.3, "hovermode": "closest",
        # the title, then the legend, then the accuracy ticks, each on a line of its own at any width
        "title": {"text": "Accuracy per perturbation (%, 95 % CI)" + (" · worst first" if sort == "worst" else ""),
                  "x": 0, "xanchor": "left", "y": 1, "yref": "container", "yanchor": "top", "pad": {"t": 8}},
        "legend": {"orientation": "h", "x": 0, "xref": "container", "xanchor": "left", "y": 1 - 44 / height,
                   "yref": "container",
                   "yanchor": "top",
                   "title": _title("model: "), "entrywidth": 0},
        "xaxis": {"range": [-2, 102], "side": "top", "gridcolor": "#ddd", "ticksuffix": " %"},
        "yaxis": {"autorange": "reversed", "automargin": True, "type": "multicategory" if by_family
                  else "category"},
        "margin": {"l": 10, "r": 20, "t": top, "b": 30}})


def category_heatmap(accuracy: pd.DataFrame, counts: pd.DataFrame) -> go.Figure:
    """Category x model accuracy (``accuracy`` and ``counts`` from :func:`probe_ui.views.results.category_accuracy` and
    :func:`probe_ui.views.results.category_counts`): each cell says its accuracy and n, hover names both."""
    if accuracy is None or accuracy.empty:
        return empty_figure()
    counts = counts.reindex(index=accuracy.index, columns=accuracy.columns)
    z = accuracy.to_numpy(dtype=float)
    nn = counts.fillna(0).to_numpy()
    text = [[f"{v:.0f} %<br>n={int(c)}" if not math.isnan(v) else "–" for v, c in zip(zr, cr)]
            for zr, cr in zip(z, nn)]
    cats, models = [str(i) for i in accuracy.index], [str(c) for c in accuracy.columns]
    heat = {"type": "heatmap", "z": [[None if math.isnan(v) else v for v in r] for r in z.tolist()], "x": models,
            "y": cats, "text": text, "texttemplate": "%{text}", "zmin": 0, "zmax": 100, "colorscale": RED_GREEN,
            "colorbar": {"title": _title("accuracy (%)")}, "customdata": nn.astype(int).tolist(),
            "hovertemplate": "category %{y}<br>model %{x}<br>accuracy %{z:.1f} %<br>n = %{customdata}<extra></extra>"}
    return _figure([heat], {"title": {"text": "Accuracy per category (%)", "x": 0},
                            "height": int(max(300, 40 * len(cats) + 160)),
                            "yaxis": {"autorange": "reversed", "automargin": True, "type": "category"},
                            "xaxis": {"automargin": True, "type": "category"},
                            "margin": {"l": 10, "r": 10, "t": 60, "b": 10}})


#: a confusion panel's height and the gap between two rows of panels, in pixels
CONFUSION_ROW_PX, CONFUSION_GAP_PX = 260, 120


def confusion(tables: dict[str, pd.DataFrame]) -> go.Figure:
    """What was answered against what was right (``{model: table}`` from :func:`probe_ui.views.results.confusion`),
    one panel per model, each cell with its count."""
    tables = {m: t for m, t in tables.items() if t is not None and not t.empty}
    if not tables:
        return empty_figure()
    cols = min(3, len(tables))
    nrows = math.ceil(len(tables) / cols)
    # rows a fixed height apart, in pixels: the gap holds a panel's tick labels and axis title and the next row's
    # model name, which a fraction of the figure's height squeezed together from 4 models on (issue 51)
    plot_px = nrows * CONFUSION_ROW_PX + (nrows - 1) * CONFUSION_GAP_PX
    layout = _grid(nrows, cols, [_short(m, 45) for m in tables], 0.08, CONFUSION_GAP_PX / plot_px)
    data = []
    for k, (model, t) in enumerate(tables.items()):
        z = t.to_numpy(dtype=float)
        x, y = _axes(k + 1)
        data.append({"type": "heatmap", "z": z.tolist(), "x": [str(c) for c in t.columns],
                     "y": [str(i) for i in t.index], "text": z.astype(int).astype(str).tolist(),
                     "texttemplate": "%{text}", "colorscale": BLUES, "showscale": False, "zmin": 0,
                     "zmax": max(1.0, float(z.max())), "name": model, "xaxis": x, "yaxis": y,
                     "hovertemplate": f"{_esc(model)}<br>right answer %{{y}}<br>answered %{{x}}<br>"
                                      "%{z:.0f} answers<extra></extra>"})
        layout[_axis("x", k + 1)].update(title=_title("answer read"), type="category")
        layout[_axis("y", k + 1)].update(title=_title("right answer"), autorange="reversed", type="category")
    layout.update(height=int(plot_px + 90), margin={"l": 10, "r": 10, "t": 80, "b": 10},
                  title={"text": "What was answered against what was right, per model", "x": 0})
    return _figure(data, layout)


def level_label(perturbation: str, level: int) -> str:
    """A sweep level as a tick reads: "original", a severity ("3") or an angle ("45°"), as its perturbation's sweep
    says."""
    from probe_ui.perturb import sweep_axis

    if int(level) == 0:
        return ORIGINAL
    return sweep_axis(perturbation).tick(level)


def _curve_traces(layout: dict[str, Any], t: pd.DataFrame, perturbation: str, *, panel: int = 1,
                  legend: bool = True, styles: dict[tuple[str, str], int] | None = None) -> list[dict[str, Any]]:
    """One line per (run, model) of one perturbation's curve rows (in subplot ``panel``, whose axes it sets up in
    ``layout``), offset sideways by a few hundredths of a step so that equal curves lie next to each other, never
    on top."""
    from probe_ui.perturb import sweep_axis

    levels = sorted({int(x) for x in t["level"]})
    pos = {lv: i for i, lv in enumerate(levels)}
    several_runs = t["run"].nunique() > 1
    groups = list(t.groupby(["run", "model"], sort=True))
    spread = 0.06 if len(groups) > 1 else 0.0
    data = []
    xref, yref = _axes(panel)
    for k, ((run, model), g) in enumerate(groups):
        g = g.sort_values("level")
        label = f"{model} · {run}" if several_runs else str(model)
        idx = (styles or {}).get((str(run), str(model)), k)
        st = _style(idx)
        shift = (k - (len(groups) - 1) / 2) * spread
        acc = g["accuracy"].astype(float)
        lo, hi = g["ci_low"].astype(float), g["ci_high"].astype(float)
        data.append({
            "type": "scatter", "x": [pos[int(v)] + shift for v in g["level"]], "y": acc.tolist(),
            "mode": "lines+markers", "name": label, "legendgroup": label, "showlegend": legend, "xaxis": xref,
            "yaxis": yref, "line": {"color": st["color"], "dash": st["dash"], "width": 2},
            "marker": {"symbol": st["symbol"], "size": 10, "color": st["color"], "line": {"width": 1, "color": "#222"}},
            "error_y": {"type": "data", "symmetric": False, "array": (hi - acc).clip(lower=0).tolist(),
                        "arrayminus": (acc - lo).clip(lower=0).tolist(), "color": st["color"], "thickness": 1.2,
                        "width": 3},
            "customdata": [list(r) for r in zip([f"{perturbation} at {level_label(perturbation, lv)}"
                                                 for lv in g["level"]], acc.tolist(), lo.tolist(), hi.tolist(),
                                                g["n"].astype(int).tolist(), g["correct"].astype(int).tolist())],
            "hovertemplate": _hover(_esc(label))})
    layout.setdefault(_axis("x", panel), {}).update(
        tickvals=list(range(len(levels))), ticktext=[level_label(perturbation, lv) for lv in levels],
        range=[-0.4, len(levels) - 0.6], title=_title(sweep_axis(perturbation).axis))
    layout.setdefault(_axis("y", panel), {}).update(range=[-2, 104], title=_title("accuracy (%)"), gridcolor="#ddd")
    return data


def _shown_curves(curves: pd.DataFrame, perturbation: str | None = None) -> pd.DataFrame:
    t = curves if perturbation is None or curves.empty else curves[curves["perturbation"] == perturbation]
    return t[t["accuracy"].notna()] if len(t) else t


def robustness_curve(curves: pd.DataFrame, perturbation: str) -> go.Figure:
    """One perturbation's curves (``curves`` from :func:`probe_ui.views.results.robustness_curves`): accuracy per level,
    one line per model (per run and model when several runs are shown) with its 95 % CI; levels without answers
    yet are left out, so a sweep can be drawn while it fills."""
    t = _shown_curves(curves, perturbation)
    if t.empty:
        return empty_figure(f"no answers for {perturbation} yet")
    layout: dict[str, Any] = {"height": 440, "hovermode": "closest", "legend": {"title": _title("model: ")},
                              "title": {"text": f"{perturbation}: accuracy by level (95 % CI)", "x": 0},
                              "margin": {"l": 10, "r": 10, "t": 60, "b": 10}}
    return _figure(_curve_traces(layout, t, perturbation), layout)


def robustness_curves(curves: pd.DataFrame) -> go.Figure:
    """Every swept perturbation's curves, one panel each (two per row), a shared legend: a model keeps its colour,
    marker and dash in every panel."""
    t = _shown_curves(curves)
    if t.empty:
        return empty_figure("no severity sweep in these answers")
    perts = list(dict.fromkeys(t["perturbation"]))
    if len(perts) == 1:
        return robustness_curve(curves, perts[0])
    cols = 2
    nrows = math.ceil(len(perts) / cols)
    styles = {key: k for k, key in enumerate(sorted({(str(r), str(m)) for r, m in zip(t["run"], t["model"])}))}
    layout = _grid(nrows, cols, perts, 0.1, min(0.15, 0.6 / nrows))
    data = []
    for k, p in enumerate(perts):
        data += _curve_traces(layout, t[t["perturbation"] == p], p, panel=k + 1, legend=k == 0, styles=styles)
    layout.update(height=int(360 * nrows + 80), hovermode="closest", legend={"title": _title("model: ")},
                  title={"text": "Accuracy by level of each perturbation (95 % CI)", "x": 0},
                  margin={"l": 10, "r": 10, "t": 80, "b": 10})
    return _figure(data, layout)


#: Plotly's named colour scales, written out (a figure built without validation passes them to plotly.js as is)
RED_GREEN = [[0.0, "#a50026"], [0.1, "#d73027"], [0.2, "#f46d43"], [0.3, "#fdae61"], [0.4, "#fee08b"],
             [0.5, "#ffffbf"], [0.6, "#d9ef8b"], [0.7, "#a6d96a"], [0.8, "#66bd63"], [0.9, "#1a9850"],
             [1.0, "#006837"]]
BLUES = [[0.0, "#f7fbff"], [0.125, "#deebf7"], [0.25, "#c6dbef"], [0.375, "#9ecae1"], [0.5, "#6baed6"],
         [0.625, "#4292c6"], [0.75, "#2171b5"], [0.875, "#08519c"], [1.0, "#08306b"]]


def _axis(letter: str, k: int) -> str:
    """The layout key of subplot ``k``'s axis (1: ``xaxis``, 2: ``xaxis2``, ...)."""
    return f"{letter}axis" if k == 1 else f"{letter}axis{k}"


def _axes(k: int) -> tuple[str, str]:
    """The axis references of subplot ``k`` that a trace names (``x``, ``y``; ``x2``, ``y2``; ...)."""
    return ("x", "y") if k == 1 else (f"x{k}", f"y{k}")


def _grid(rows: int, cols: int, titles: list[str], hspace: float, vspace: float) -> dict[str, Any]:
    """The layout of a grid of subplots, row by row, each titled (what ``plotly.subplots.make_subplots`` lays out),
    as plain dicts."""
    width = (1.0 - hspace * (cols - 1)) / cols
    height = (1.0 - vspace * (rows - 1)) / rows
    layout: dict[str, Any] = {"annotations": []}
    for k in range(1, rows * cols + 1):
        r, c = (k - 1) // cols, (k - 1) % cols
        x0 = c * (width + hspace)
        y1 = 1.0 - r * (height + vspace)
        x, y = _axes(k)
        layout[_axis("x", k)] = {"domain": _domain(x0, x0 + width), "anchor": y}
        layout[_axis("y", k)] = {"domain": _domain(y1 - height, y1), "anchor": x}
        if k <= len(titles):
            layout["annotations"].append({"text": titles[k - 1], "x": x0 + width / 2, "y": y1, "xref": "paper",
                                          "yref": "paper", "xanchor": "center", "yanchor": "bottom",
                                          "showarrow": False, "font": {"size": 15}})
    return layout


def _domain(start: float, end: float) -> list[float]:
    """An axis domain Plotly accepts: inside [0, 1] (the last row of a grid computed as ``1 - 3 * (h + gap)`` can
    land a rounding error below 0, ``-5.55e-17``, which Plotly refuses; issue 51, U29)."""
    return [min(1.0, max(0.0, round(start, 9))), min(1.0, max(0.0, round(end, 9)))]


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _esc(s: str) -> str:
    """Text put into a hover template: HTML and Plotly's %{...} placeholders made literal."""
    import html

    return html.escape(str(s)).replace("%{", "%&#123;")


def reliability_diagram(table: pd.DataFrame) -> go.Figure:
    """The reliability diagram of a stated confidence (``table`` from
    :func:`probe_ui.metrics.calibration.reliability_frame`): per model (per run and model when several runs are
    shown), a point per bin of confidence at (mean confidence, accuracy) with the accuracy's 95 % CI, its size
    growing with the bin's answers, joined by a line; the diagonal is a perfectly calibrated model, and a point
    below it a bin where the model is surer than it is right. Each model keeps its colour, marker and dash."""
    t = table[table["accuracy"].notna()] if table is not None and len(table) else None
    if t is None or t.empty:
        return empty_figure("no answers with a confidence")
    several_runs = t["run"].nunique() > 1
    groups = list(t.groupby(["run", "model"], sort=True))
    biggest = max(1, int(t["n"].max()))
    data: list[dict[str, Any]] = [{
        "type": "scatter", "x": [0, 100], "y": [0, 100], "mode": "lines", "name": "perfectly calibrated",
        "line": {"color": "#888", "dash": "dot", "width": 1.5}, "hoverinfo": "skip"}]
    for k, ((run, model), g) in enumerate(groups):
        g = g.sort_values("bin")
        label = f"{model} · {run}" if several_runs else str(model)
        st = _style(k)
        acc = g["accuracy"].astype(float)
        lo = g["ci_low"].astype(float).fillna(acc)
        hi = g["ci_high"].astype(float).fillna(acc)
        n = g["n"].astype(int)
        data.append({
            "type": "scatter", "x": g["mean_confidence"].astype(float).tolist(), "y": acc.tolist(),
            "mode": "lines+markers", "name": label, "legendgroup": label,
            "line": {"color": st["color"], "dash": st["dash"], "width": 2},
            "marker": {"symbol": st["symbol"], "color": st["color"], "line": {"width": 1, "color": "#222"},
                       "size": [8 + 14 * math.sqrt(v / biggest) for v in n]},
            "error_y": {"type": "data", "symmetric": False, "array": (hi - acc).clip(lower=0).tolist(),
                        "arrayminus": (acc - lo).clip(lower=0).tolist(), "color": st["color"], "thickness": 1.2,
                        "width": 3},
            "customdata": [list(r) for r in zip(g["low"].astype(float).tolist(), g["high"].astype(float).tolist(),
                                                g["mean_confidence"].astype(float).tolist(), acc.tolist(),
                                                lo.tolist(), hi.tolist(), n.tolist())],
            "hovertemplate": ("<b>" + _esc(label) + "</b><br>confidence %{customdata[0]:.0f}–%{customdata[1]:.0f} %"
                              "<br>mean confidence %{customdata[2]:.1f} %<br>accuracy %{customdata[3]:.1f} % "
                              "(95 % CI %{customdata[4]:.1f}–%{customdata[5]:.1f})<br>n = %{customdata[6]} answers"
                              "<extra></extra>")})
    legend_lines = math.ceil(len(groups) / 3)  # a narrow screen (a projector at 125 %) fits about three a line
    top = 96 + 24 * legend_lines
    height = 520 + 24 * legend_lines
    return _figure(data, {
        "height": height, "hovermode": "closest",
        "title": {"text": "Reliability: accuracy by stated confidence (%, 95 % CI)", "x": 0, "xanchor": "left",
                  "y": 1, "yref": "container", "yanchor": "top", "pad": {"t": 8}},
        "legend": {"orientation": "h", "x": 0, "xref": "container", "xanchor": "left", "y": 1 - 44 / height,
                   "yref": "container", "yanchor": "top", "title": _title("model: "), "entrywidth": 0},
        "xaxis": {"range": [-2, 102], "title": _title("mean confidence stated (%)"), "gridcolor": "#ddd",
                  "ticksuffix": " %", "constrain": "domain"},
        "yaxis": {"range": [-2, 104], "title": _title("accuracy (%)"), "gridcolor": "#ddd", "ticksuffix": " %",
                  "scaleanchor": "x", "scaleratio": 1},
        "margin": {"l": 10, "r": 20, "t": top, "b": 10}})
