"""The Results tab's figures, as :class:`matplotlib.figure.Figure` objects built without pyplot (no global state,
so the app may build them from several threads at once); a figure with nothing to show says so
(:func:`empty_figure`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pandas as pd

from probe_ui.views.results.breakdowns import (
    accuracy_by_condition,
    category_accuracy,
    category_counts,
    condition_order,
    confusion,
    level_label,
    robustness_curves,
)

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


#: the label (matplotlib's ``Figure.get_label``) of a figure that only says why there is nothing to plot, followed
#: by that reason: the HTML report writes the reason as a line of text instead of drawing a picture of it
EMPTY_LABEL = "probe-ui: nothing to plot: "


def empty_figure(message: str = "no answers") -> Figure:
    """A small figure that says why there is nothing to plot (labelled :data:`EMPTY_LABEL` + ``message``)."""
    fig = _figure(6, 2.5)
    fig.set_label(EMPTY_LABEL + message)
    fig.text(0.5, 0.5, message, ha="center", va="center", fontsize=13, color="0.4")  # no axes: 0.4 ms, not 10
    return fig


def _label_ticks(ax: Axes, axis: str, labels: list[str]) -> None:
    """Tick labels that stay readable: long or many labels are rotated (x) and shortened past 40 characters."""
    short = [lb if len(lb) <= 40 else lb[:39] + "…" for lb in labels]
    if axis == "x":
        ax.set_xticks(range(len(labels)))
        rotate = len(labels) > 4 or max((len(lb) for lb in short), default=0) > 10
        ax.set_xticklabels(short, rotation=35 if rotate else 0, ha="right" if rotate else "center",
                           rotation_mode="anchor")
    else:
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(short)


def plot_accuracy_by_condition(df: pd.DataFrame) -> Figure:
    """Grouped bars: accuracy (%) per condition, one colour per model, the 95 % interval over the units of evidence
    as error bars."""
    table = accuracy_by_condition(df)
    if table.empty:
        return empty_figure()
    conds = condition_order(table["condition"])
    models = sorted(table["model"].unique())
    width = 0.8 / len(models)
    fig = _figure(min(22.0, max(6.0, 0.35 * len(conds) * len(models) + 2.5)), 4.8)
    ax = fig.add_subplot()
    pos = {c: i for i, c in enumerate(conds)}
    for k, model in enumerate(models):
        t = table[table["model"] == model]
        x = [pos[c] - 0.4 + width * (k + 0.5) for c in t["condition"]]
        err = [(t["accuracy"] - t["ci_low"]).clip(lower=0).to_list(),
               (t["ci_high"] - t["accuracy"]).clip(lower=0).to_list()]
        ax.bar(x, t["accuracy"], width=width * 0.95, yerr=err, capsize=3, label=model, color=f"C{k % 10}",
               error_kw={"elinewidth": 1, "ecolor": "0.25"})
    words = dict(zip(table["condition"], table["what was done"]))
    _label_ticks(ax, "x", [words.get(c, c) for c in conds])
    ax.set_ylim(0, 105)
    ax.set_ylabel("accuracy (%)")
    ax.set_xlabel("condition")
    ax.set_title("Accuracy by condition (95 % CI)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def plot_confusion(df: pd.DataFrame) -> Figure:
    """One heatmap per model (expected answer x parsed answer), each cell annotated with its count."""
    models = sorted(df.loc[df["error"].isna(), "model"].unique()) if not df.empty else []
    if not models:
        return empty_figure()
    tables = [confusion(df, m) for m in models]
    ncols = min(3, len(models))
    nrows = math.ceil(len(models) / ncols)
    side = max(max(t.shape) for t in tables)
    cell = min(3.8, max(2.6, 0.45 * side + 1.4))
    fig = _figure(cell * ncols + 0.5, cell * nrows + 0.3)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, model, t in zip(axes, models, tables):
        _heatmap(ax, t.to_numpy(dtype=float), cmap="Blues", vmin=0, vmax=max(1.0, float(t.to_numpy().max())),
                 fmt="{:.0f}")
        _label_ticks(ax, "x", [str(c) for c in t.columns])
        _label_ticks(ax, "y", [str(i) for i in t.index])
        ax.set_xlabel("parsed answer")
        ax.set_ylabel("expected answer")
        ax.set_title(_short(model, 45), fontsize="medium")
    for ax in axes[len(models):]:
        fig.delaxes(ax)
    return fig


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _heatmap(ax: Axes, values: Any, *, cmap: str, vmin: float, vmax: float, fmt: str,
             labels: list[list[str]] | None = None) -> Any:
    """imshow with every finite cell written on it (``labels`` when given, else ``fmt``), in a colour that stays
    readable on the cell."""
    import numpy as np

    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    cmap_obj = image.get_cmap()
    for (i, j), v in np.ndenumerate(values):
        if not np.isfinite(v):
            ax.text(j, i, "–", ha="center", va="center", color="0.5", fontsize="small")
            continue
        r, g, b, _ = cmap_obj(image.norm(v))
        dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
        ax.text(j, i, labels[i][j] if labels else fmt.format(v), ha="center", va="center",
                color="white" if dark else "black", fontsize="small")
    return image


def plot_category_heatmap(df: pd.DataFrame) -> Figure:
    """Category x model accuracy heatmap, each cell labelled with its accuracy and n, colour scale 0-100 % from
    red to green."""
    table = category_accuracy(df)
    if table.empty:
        return empty_figure()
    counts = category_counts(df).reindex(index=table.index, columns=table.columns)
    rows, cols = table.shape
    fig = _figure(min(20.0, max(5.0, 1.5 * cols + 3.5)), min(24.0, max(3.0, 0.5 * rows + 1.8)))
    ax = fig.add_subplot()
    labels = [[f"{v:.0f}\nn={int(n)}" if pd.notna(v) else "–" for v, n in zip(vr, nr)]
              for vr, nr in zip(table.to_numpy(dtype=float), counts.fillna(0).to_numpy())]
    image = _heatmap(ax, table.to_numpy(dtype=float), cmap="RdYlGn", vmin=0, vmax=100, fmt="{:.0f}", labels=labels)
    _label_ticks(ax, "x", [str(c) for c in table.columns])
    _label_ticks(ax, "y", [str(i) for i in table.index])
    ax.set_xlabel("model")
    ax.set_ylabel("category")
    ax.set_title("Accuracy by category (%)")
    fig.colorbar(image, ax=ax, label="accuracy (%)")
    return fig


def plot_robustness_curve(curves: pd.DataFrame, perturbation: str) -> Figure:
    """One perturbation's curves (``curves`` from :func:`robustness_curves`): accuracy (%) per level, one line per
    model (per run and model when several runs are shown) with its 95 % band over the units of evidence, levels at
    equal steps from the original (the spacing the AUC uses). Levels without answers yet are left out, so a sweep
    can be drawn while it fills."""
    import numpy as np

    from probe_ui.perturb import sweep_axis

    t = curves[curves["perturbation"] == perturbation] if len(curves) else curves
    t = t[t["accuracy"].notna()] if len(t) else t
    if t.empty:
        return empty_figure(f"no answers for {perturbation} yet")
    levels = sorted({int(x) for x in t["level"]})
    pos = {lv: i for i, lv in enumerate(levels)}
    fig = _figure(max(6.0, 0.9 * len(levels) + 3.5), 4.2)
    ax = fig.add_subplot()
    several_runs = t["run"].nunique() > 1
    for k, ((run, model), g) in enumerate(t.groupby(["run", "model"], sort=True)):
        g = g.sort_values("level")
        x = np.array([pos[int(v)] for v in g["level"]], dtype=float)
        label = f"{model} · {run}" if several_runs else str(model)
        colour = f"C{k % 10}"
        ax.plot(x, g["accuracy"].to_numpy(dtype=float), marker="o", color=colour, label=label)
        ax.fill_between(x, g["ci_low"].to_numpy(dtype=float), g["ci_high"].to_numpy(dtype=float), color=colour,
                        alpha=0.15, linewidth=0)
    ax.set_xticks(range(len(levels)))
    ax.set_xticklabels([level_label(perturbation, lv) for lv in levels])
    ax.set_xlim(-0.2, len(levels) - 0.8)
    ax.set_ylim(0, 105)
    ax.set_xlabel(sweep_axis(perturbation).axis)
    ax.set_ylabel("accuracy (%)")
    ax.set_title(f"{perturbation}: accuracy by level (95 % CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig


def robustness_figures(df: pd.DataFrame) -> dict[str, Figure]:
    """One figure per swept perturbation (:func:`plot_robustness_curve`), in the suite's order; {} without a
    sweep."""
    curves = robustness_curves(df)
    return {p: plot_robustness_curve(curves, p) for p in dict.fromkeys(curves["perturbation"])}


def plot_reliability(table: pd.DataFrame) -> Figure:
    """The reliability diagram (``table`` from :func:`probe_ui.metrics.calibration.reliability_frame`): per model
    (run and model when several runs are shown) a point per bin of confidence at (mean confidence, accuracy) with the
    accuracy's 95 % CI, joined by a line; the diagonal is a perfectly calibrated model."""
    t = table[table["accuracy"].notna()] if table is not None and len(table) else None
    if t is None or t.empty:
        return empty_figure("no answers with a confidence")
    fig = _figure(6.4, 4.6)
    ax = fig.add_subplot()
    ax.plot([0, 100], [0, 100], color="0.6", linestyle="--", linewidth=1, label="perfectly calibrated")
    several_runs = t["run"].nunique() > 1
    for k, ((run, model), g) in enumerate(t.groupby(["run", "model"], sort=True)):
        g = g.sort_values("mean_confidence")
        x, y = g["mean_confidence"].to_numpy(dtype=float), g["accuracy"].to_numpy(dtype=float)
        err = [y - g["ci_low"].to_numpy(dtype=float), g["ci_high"].to_numpy(dtype=float) - y]
        ax.errorbar(x, y, yerr=err, marker="os^Dv<>ph*"[k % 10], color=f"C{k % 10}", capsize=3,
                    label=f"{model} · {run}" if several_runs else str(model))
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 105)
    ax.set_xlabel("confidence the model stated (%)")
    ax.set_ylabel("accuracy (%)")
    ax.set_title("reliability: accuracy per bin of confidence (95 % CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return fig

