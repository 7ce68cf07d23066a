"""The paired bootstrap of ``probe-ui compare`` and the report (:func:`probe_ui.views.compare.paper_differences`) is
fast because each replicate is drawn from a table prepared once for resampling (:func:`probe_ui.metrics.frame.
for_resampling`) and the families score it with numpy. Not one figure may change for it: these tests recompute
every replicate the straightforward way (rows drawn from the prepared answer tables as DataFrames, every family
scoring each draw, kept here as the reference) and require bit-identical values and intervals, on the report's
store (MediConfusion pairs and MedVH NOTA under rotations) and on a store with more families (ProbMed, MedBLINK
orientation, CircularEval), three samples per question voted, and a model whose answers are often unreadable."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pandas as pd
import pytest

from probe_ui import stats
from probe_ui.metrics import detect_families, get_family
from probe_ui.metrics.frame import for_resampling, prepare
from probe_ui.metrics.registry import MetricContext
from probe_ui.metrics.samples import majority_vote
from probe_ui.perturb.registry import derive_seed
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.providers.baselines import BASELINE_MODES
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views import compare

N_BOOT = 12  # replicates per check: every one is compared, so a few catch a changed figure (CI time)


def _leaf(v: Any) -> float | None:
    v = v.get("value") if isinstance(v, dict) else v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _figures(d: pd.DataFrame, fams: list[Any], which: str) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for fam in fams:
        try:
            block = fam.definitions[fam.definition_for(which)](d, MetricContext(n_boot=0, detail=False))
            figs = fam.headline(block) if isinstance(block, dict) and "error" not in block else {}
        except Exception:
            figs = {}
        out.update({f"{fam.name} · {label}": _leaf(v) for label, v in figs.items()})
    return out


def _draw(d: pd.DataFrame, rows: list[np.ndarray], idx: np.ndarray) -> pd.DataFrame:
    """The drawn units' rows; the k-th copy of a unit gets its own replica and item codes."""
    parts, copies = [], []
    seen: dict[int, int] = {}
    for u in idx:
        parts.append(d.iloc[rows[u]])
        copies += [seen.get(int(u), 0)] * len(rows[u])
        seen[int(u)] = seen.get(int(u), 0) + 1
    out = pd.concat(parts, ignore_index=True)
    k = np.array(copies, dtype=np.int64)
    if k.any():
        for col in ("_rep", "_item"):
            out[col] = out[col].to_numpy(dtype=np.int64) + k * (int(d[col].max()) + 1)
    return out


def reference(a: pd.DataFrame, b: pd.DataFrame, which: str, n_boot: int, seed: int = 0) -> list[dict[str, Any]]:
    """:func:`compare.paper_differences` computed the straightforward way, replicate by replicate."""
    da, db = prepare(a), prepare(b)
    fams = [get_family(n) for n in sorted(set(detect_families(da)) & set(detect_families(db)))]
    va, vb = _figures(da, fams, which), _figures(db, fams, which)
    figures = [k for k in va if k in vb and va[k] is not None and vb[k] is not None]
    ua, ub = compare._units(da), compare._units(db)
    universe = sorted(set(ua) & set(ub))
    rows_a = [np.flatnonzero(ua == u) for u in universe]
    rows_b = [np.flatnonzero(ub == u) for u in universe]
    reps: dict[str, list[float]] = {k: [] for k in figures}
    rng = np.random.default_rng(seed)
    for _ in range(n_boot):
        idx = rng.integers(0, len(universe), size=len(universe))
        ra, rb = _figures(_draw(da, rows_a, idx), fams, which), _figures(_draw(db, rows_b, idx), fams, which)
        for k in figures:
            x, y = ra.get(k), rb.get(k)
            reps[k].append(y - x if x is not None and y is not None else math.nan)
    out = []
    for k in figures:
        fam, label = k.split(" · ", 1)
        fig_a, fig_b = va[k], vb[k]
        assert fig_a is not None and fig_b is not None  # figures holds the keys with both values
        ci = stats.percentile_interval(reps[k])
        out.append({"family": fam, "figure": label, "a": fig_a, "b": fig_b, "difference": fig_b - fig_a,
                    "ci": list(ci) if ci else None, "n_boot": n_boot})
    return out


def _sides(store: Store, run_a: str, run_b: str, model_a: str, model_b: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    fa = compare._frame(store, compare.Side(run_a, model_a), "robust")
    fb = compare._frame(store, compare.Side(run_b, model_b), "robust")
    return majority_vote(fa), majority_vote(fb)


def _same(fast: list[dict[str, Any]], ref: list[dict[str, Any]]) -> None:
    assert [(r["family"], r["figure"]) for r in fast] == [(r["family"], r["figure"]) for r in ref]
    for f, r in zip(fast, ref):
        assert f == r, f"{f['family']} · {f['figure']}: {f} != reference {r}"  # exact: values and intervals


@pytest.fixture(scope="module")
def report_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The report tests' store: MediConfusion pairs and MedVH NOTA under rotations, three baselines, two seeds."""
    store = Store(tmp_path_factory.mktemp("boot") / "r.db")
    presets = [load_preset(PRESETS_DIR / p) for p in ("mediconfusion_pairs.yaml", "medvh_nota.yaml")]
    for seed, name in ((0, "main"), (1, "base")):
        run_batch(store, presets, ["baseline/first", "baseline/random", "baseline/last"],
                  BatchOptions(suites=["rotations"], seed=seed, run_name=name, progress=False))
    return store


def _sloppy(request: Any) -> str:
    """A baseline that answers something unreadable a quarter of the time."""
    r = random.Random(derive_seed(request.settings.seed or 0, request.variant_id, request.sample, request.prompt))
    return "I cannot tell" if r.random() < 0.25 else r.choice(request.labels)


@pytest.fixture(scope="module")
def families_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """ProbMed, MedBLINK orientation, MediConfusion and MedVH under circular shifts, three samples per question,
    a random baseline and one whose answers are often unreadable."""
    BASELINE_MODES.add("sloppy-exact", _sloppy)
    try:
        store = Store(tmp_path_factory.mktemp("boot2") / "r.db")
        presets = [load_preset(PRESETS_DIR / p) for p in ("probmed_adversarial.yaml", "medblink_orientation.yaml",
                                                          "mediconfusion_pairs.yaml", "medvh_nota.yaml")]
        res = run_batch(store, presets, ["baseline/random", "baseline/sloppy-exact"],
                        BatchOptions(suites=["circular"], seed=0, samples=3, temperature=0.7, run_name="main",
                                     progress=False))
        assert res.errors == 0
    finally:
        BASELINE_MODES.remove("sloppy-exact")
    return store


def test_report_store_figures_bit_identical(report_store: Store) -> None:
    a, b = _sides(report_store, "base", "main", "baseline/random", "baseline/random")
    fast = compare.paper_differences(a, b, definition="clean", n_boot=N_BOOT, seed=3)
    assert {r["family"] for r in fast} >= {"mediconfusion", "medvh", "groups"}
    _same(fast, reference(a, b, "clean", N_BOOT, seed=3))


@pytest.mark.parametrize("which", ["clean", "paper"])
def test_several_families_samples_and_unreadable_answers_bit_identical(families_store: Store, which: str) -> None:
    a, b = _sides(families_store, "main", "main", "baseline/random", "baseline/sloppy-exact")
    assert int(pd.to_numeric(b["invalid"], errors="coerce").fillna(0).sum()) > 0  # unreadable answers are scored
    fast = compare.paper_differences(a, b, definition=which, n_boot=N_BOOT // 2)
    assert {r["family"] for r in fast} >= {"probmed", "medblink", "mediconfusion", "groups"}
    _same(fast, reference(a, b, which, N_BOOT // 2))


def test_families_score_the_resampling_table_as_the_prepared_one(families_store: Store) -> None:
    """Every family's whole block (not only its headline) is the same on the table prepared for resampling."""
    _, b = _sides(families_store, "main", "main", "baseline/random", "baseline/sloppy-exact")
    plain, fast = prepare(b), for_resampling(b)
    names = detect_families(plain)
    assert names == detect_families(fast) and len(names) >= 3
    for name in names:
        fam = get_family(name)
        for which in fam.definitions:
            ctx = MetricContext(n_boot=50)
            assert fam.definitions[which](fast, ctx) == fam.definitions[which](plain, ctx), (name, which)
