"""Robustness curves are counted with numpy (:class:`probe_ui.metrics.robustness._Sweep`), because a paired
bootstrap (``probe-ui compare``, the report against a baseline) computes them for every replicate. Not one figure
may change for it: these tests keep the straightforward pandas computation (a groupby per level, a lookup of each
item's original) as the reference and require identical curves, flip rates and breaking points, on a sweep's own
tables and on bootstrap draws of them (units drawn several times, others left out)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui import stats
from probe_ui.metrics.base import wilson_ci
from probe_ui.metrics.frame import cmv, for_resampling, prepare, same_values, unit_kind
from probe_ui.metrics.robustness import _order, _r, auc, curves, sweep_rows
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import scored_answers
from probe_ui.store import Store
from probe_ui.views import compare


def _levels(g: pd.DataFrame, okey: pd.Series) -> list[dict[str, Any]]:
    out = []
    for level, lv in g.groupby("level", sort=True):
        c = lv["c"].to_numpy(dtype=float)
        scored = c[~np.isnan(c)]
        n = int(len(scored))
        right = int(scored.sum())
        lo, hi = wilson_ci(right, n) if n else (None, None)
        ok = lv[~np.isnan(c)]
        if n and ok.groupby("unit").size().max() > 1:  # a unit with several answers at this level (issue 43)
            by_unit = ok.groupby("unit", sort=False)["c"].agg(["sum", "size"])
            by_item = ok.groupby("item", sort=False)["c"].agg(["sum", "size"])
            iv = stats.clustered_wilson(by_unit["sum"], by_unit["size"], nested=(by_item["sum"], by_item["size"]))
            lo, hi = round(100 * iv.low, 4), round(100 * iv.high, 4)
        flip = None
        if level != 0:
            has = lv["item"].isin(okey.index).to_numpy()
            if has.any():
                changed = ~same_values(lv["key"].to_numpy(dtype=object)[has],
                                       okey.reindex(lv["item"][has]).to_numpy(dtype=object))
                flip = _r(100.0 * changed.mean())
        out.append({"severity": int(level), "accuracy": _r(100.0 * right / n) if n else None, "ci_low": lo,
                    "ci_high": hi, "n": n, "answer_flip_rate": flip})
    return out


def _breaking(g: pd.DataFrame, okey: pd.Series, kind: str) -> dict[str, Any]:
    items = g.loc[g["level"] == 0, ["item", "item_id"]].drop_duplicates("item")
    lv = g[(g["level"] > 0) & g["item"].isin(okey.index).to_numpy()]
    changed = ~same_values(lv["key"].to_numpy(dtype=object), okey.reindex(lv["item"]).to_numpy(dtype=object))
    first = lv[changed].groupby("item")["level"].min()
    levels = first.reindex(items["item"]).to_numpy(dtype=float)
    units = g.loc[g["level"] == 0].drop_duplicates("item")["unit"].to_numpy()
    per_item = [{"item_id": str(i), "level": None if np.isnan(x) else int(x), "unit": int(u)}
                for i, x, u in zip(items["item_id"], levels, units)]
    broke = levels[~np.isnan(levels)]
    return {"median": _r(float(np.median(broke))) if len(broke) else None,
            "never_broken": cmv(np.isnan(levels), units, kind=kind), "broken": int(len(broke)),
            "items": len(per_item), "per_item": per_item}


def reference_curves(df: pd.DataFrame) -> dict[str, Any]:
    """The curves the straightforward way: one groupby per level, each item's original looked up by index."""
    rows = sweep_rows(df)
    rows["unit"] = pd.factorize(rows["unit"])[0]  # one numbering for the whole table
    kind = unit_kind(prepare(df))
    out: dict[str, Any] = {}
    for p in _order(rows["perturbation"].unique()):
        g = rows[rows["perturbation"] == p]
        okey = g[g["level"] == 0].drop_duplicates("item").set_index("item")["key"]
        levels = _levels(g, okey)
        a, rel = auc(levels)
        out[p] = {"levels": levels, "auc": a, "auc_relative": rel, "breaking_point": _breaking(g, okey, kind)}
    return out


@pytest.fixture(scope="module")
def sweep_tables(tmp_path_factory: pytest.TempPathFactory) -> list[pd.DataFrame]:
    """A severity sweep of five items by a random guesser (its answers flip from level to level), a constant
    model and a guesser asked three times per question (voted), one table per model."""
    folder: Path = tmp_path_factory.mktemp("sweep")
    for i in range(5):
        write_png(folder / f"img{i}.png", seed=i)
    items = [choice_item(i, f"img{i}.png", answer="AB"[i % 2]) for i in range(5)]
    store = Store(folder / "probe-ui.db")
    preset = load_preset(write_preset(folder / "p.yaml", items))
    for name, models, samples in (("s1", ["baseline/random", "baseline/first"], 1), ("s3", ["baseline/random"], 3)):
        res = run_batch(store, [preset], models,
                        BatchOptions(run_name=name, suites=["severity"], samples=samples, seed=7,
                                     temperature=0.7 if samples > 1 else None, progress=False))
        assert res.errors == 0
    tables = []
    for run in ("s1", "s3"):
        df = scored_answers(store, run)
        tables += [g for _, g in df.groupby("model", sort=True)]
    return tables


def test_curves_equal_the_reference_on_a_sweeps_tables(sweep_tables: list[pd.DataFrame]) -> None:
    flips = set()
    for df in sweep_tables:
        got, want = curves(df), reference_curves(df)
        assert got == want
        flips |= {lv["answer_flip_rate"] for b in got.values() for lv in b["levels"]}
    assert len(flips - {None, 0.0}) > 3  # the guesser's answers do flip: the check compares real rates


def test_curves_equal_the_reference_on_bootstrap_draws(sweep_tables: list[pd.DataFrame]) -> None:
    rng = np.random.default_rng(11)
    draws = 0
    for df in sweep_tables:
        d = for_resampling(df)
        units = compare._units(d)
        universe = sorted(set(units))
        rows = [np.flatnonzero(units == u) for u in universe]
        for _ in range(15):
            idx = rng.integers(0, len(universe), len(universe))
            sample = compare._resample(d, rows, idx)
            assert curves(sample) == reference_curves(sample)
            draws += 1
        # rows of items whose original is missing (swept levels only) and answers without a known ground truth
        orphans = d[d["condition"].astype(str) != "original"].head(40).copy()
        orphans["_item"] = orphans["_item"].to_numpy() + int(d["_item"].max()) + 1
        unknown = d.sample(frac=0.3, random_state=1).copy()
        unknown["_c"] = np.nan
        # a second original of some items with another answer (several samples, not voted): the first one counts
        # (sweep_rows keeps it)
        again = d[d["condition"].astype(str) == "original"].head(3).copy()
        again["_key"] = "another answer"
        mixed = pd.concat([d, orphans, unknown, again], ignore_index=True)
        got = curves(mixed)
        assert got == reference_curves(mixed)
        assert any(lv["n"] < len(mixed) for b in got.values() for lv in b["levels"])
    assert draws == 15 * len(sweep_tables)


def test_an_empty_or_unswept_table_has_no_curves(sweep_tables: list[pd.DataFrame]) -> None:
    df = sweep_tables[0]
    assert curves(df.iloc[:0]) == reference_curves(df.iloc[:0]) == {}
    plain = df[df["condition"].astype(str) == "original"]
    assert curves(plain) == reference_curves(plain) == {}
