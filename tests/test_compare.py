"""Paired comparison of two runs (issue 29): the statistics against hand computations and reference values, and
``probe-ui compare`` on constructed runs whose flips are known."""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import choice_item, write_png, write_preset
from scipy import stats as sps

from probe_ui import stats
from probe_ui.cli import main
from probe_ui.metrics.base import wilson_ci
from probe_ui.store import Store
from probe_ui.views.compare import CompareError, Side, compare, sides, worse_beyond

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

# ---- the statistics -----------------------------------------------------------------------------------------------

def test_newcombe_paired_reproduces_the_published_example() -> None:
    """Cavo et al. (2012), complete response before and after consolidation therapy: 59 both, 6 before only, 16
    after only, 80 neither; Newcombe's square-and-add interval -0.0621 (-0.1186 to -0.0046) as given by Fagerland,
    Lydersen & Laake (2017, ch. 8) and their R package contingencytables."""
    d, lo, hi = stats.newcombe_paired(59, 6, 16, 80)
    assert (round(d / 100, 4), round(lo / 100, 4), round(hi / 100, 4)) == (-0.0621, -0.1186, -0.0046)


def test_newcombe_paired_by_hand() -> None:
    """A small table worked through the formula step by step (Wilson limits, the continuity-corrected phi)."""
    both, first, second, neither = 10, 2, 8, 20
    n = 40
    p1, p2 = 12 / n, 18 / n
    l1, u1 = stats.wilson(12, n)
    l2, u2 = stats.wilson(18, n)
    a = both * neither - first * second  # 184 > n/2: phi uses a - n/2
    phi = (a - n / 2) / math.sqrt(12 * 28 * 18 * 22)
    lo = (p1 - p2) - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2))
    hi = (p1 - p2) + math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1))
    assert stats.newcombe_paired(both, first, second, neither) == pytest.approx((100 * (p1 - p2), 100 * lo, 100 * hi))
    # a negative association (a < 0) uses phi as it is; 0 <= a <= n/2 sets it to 0
    assert stats.newcombe_paired(0, 5, 5, 0)[1:] != stats.newcombe_paired(5, 5, 5, 5)[1:]
    assert stats.newcombe_paired(0, 0, 0, 0) is None


def test_paired_interval_is_narrower_than_the_independent_one_for_correlated_answers() -> None:
    """The reason for a paired comparison: the same questions answered twice are positively correlated."""
    _, plo, phi = stats.newcombe_paired(60, 4, 12, 24)
    _, ilo, ihi = stats.newcombe_interval(64, 100, 72, 100)
    assert phi - plo < ihi - ilo


@pytest.mark.parametrize(("b", "c"), [(1, 5), (0, 0), (3, 3), (0, 7), (12, 3), (40, 61), (300, 350), (5, 0)])
def test_mcnemar_exact_equals_the_binomial_test(b: int, c: int) -> None:
    want = 1.0 if b + c == 0 else sps.binomtest(b, b + c, 0.5, alternative="two-sided").pvalue
    assert stats.mcnemar_exact(b, c) == pytest.approx(want, rel=1e-9, abs=1e-15)


def test_mcnemar_exact_by_hand() -> None:
    # 1 and 5 discordant pairs: 2 * (C(6,0) + C(6,1)) / 2**6 = 14 / 64
    assert stats.mcnemar_exact(1, 5) == pytest.approx(14 / 64)
    assert stats.mcnemar_exact(5, 1) == pytest.approx(14 / 64)
    assert stats.mcnemar_exact(0, 10) == pytest.approx(2 / 1024)


def test_holm_worked_example() -> None:
    """p = 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06,
    0.04 x 1 = 0.04 -> kept non-decreasing: 0.06; in the input order: 0.03, 0.06, 0.06, 0.02."""
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, None, 0.9]) == [pytest.approx(1.0), None, pytest.approx(1.0)]
    assert stats.holm([]) == []


def test_wilson_in_one_place() -> None:
    """The metrics' percent interval is the statistics module's, rounded: one home, unchanged figures."""
    lo, hi = stats.wilson(7, 20)
    assert wilson_ci(7, 20) == (round(100 * lo, 4), round(100 * hi, 4))
    assert wilson_ci(0, 10)[0] == 0.0 and wilson_ci(10, 10)[1] == 100.0


def test_bootstrap_is_seeded() -> None:
    values = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    stat = lambda idx: sum(values[i] for i in idx) / len(idx)  # noqa: E731
    a = stats.bootstrap(stat, len(values), n_boot=50, seed=3)
    assert list(a) == list(stats.bootstrap(stat, len(values), n_boot=50, seed=3))
    lo, hi = stats.percentile_interval(a)
    assert 0.0 <= lo <= 4 / 6 <= hi <= 1.0


# ---- constructed runs ---------------------------------------------------------------------------------------------

N_ITEMS = 8
#: which items (0-based) each model answers right; the rest it answers wrong
RIGHT = {"old": {0, 1, 2, 3, 4}, "new": {2, 3, 4, 5, 6, 7}}


def _responder(body: dict[str, Any]) -> str:
    text = json.dumps(body["messages"])
    i = int(re.search(r"What does image (\d+) show", text).group(1))
    right = i in RIGHT[body["model"]]
    return "The answer is A." if right else "The answer is B."


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    for i in range(N_ITEMS):
        write_png(tmp_path / f"im{i}.png", seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i}.png", answer="A", category=f"c{i % 2}")
                                              for i in range(N_ITEMS)])


@pytest.fixture
def served(fake_openai, monkeypatch) -> Any:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai.responder = _responder
    return fake_openai


def _batch(preset: Path, db: str, run: str, *models: str, extra: tuple[str, ...] = ()) -> None:
    argv = ["batch", str(preset), "--db", db, "--run", run, "--no-progress", *extra]
    for m in models:
        argv += ["-m", f"openai/{m}"]
    assert main(argv) == 0


def test_two_models_of_one_run_flips_and_counts(preset: Path, served: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _batch(preset, db, "r", "old", "new")
    c = compare(Store(db), Side("r", "openai/old"), Side("r", "openai/new"), n_boot=50)
    o = c["overall"]
    assert (o["n"], o["both_right"], o["fixed"], o["broke"], o["both_wrong"]) == (8, 3, 3, 2, 0)
    assert (o["accuracy_a"], o["accuracy_b"]) == (62.5, 75.0)
    assert o["difference"] == pytest.approx(12.5)
    assert o["p_value"] == pytest.approx(sps.binomtest(2, 5, 0.5).pvalue)
    lo, hi = o["ci"]
    assert lo < 12.5 < hi
    assert sorted(f["item_id"] for f in c["fixed"]) == ["q5", "q6", "q7"]
    assert sorted(f["item_id"] for f in c["broke"]) == ["q0", "q1"]
    f = next(x for x in c["broke"] if x["item_id"] == "q0")
    assert (f["a"]["parsed"], f["b"]["parsed"]) == ("A", "B")
    assert f["a"]["text"] == "The answer is A." and f["b"]["text"] == "The answer is B."
    assert (f["a"]["answer"], f["b"]["answer"], f["right_answer"]) == ("A: finding 0-0", "B: finding 0-1",
                                                                       "A: finding 0-0")
    # per category (c0: even items, c1: odd), Holm-adjusted across the two
    cats = {r["category"]: r for r in c["by_category"]}
    assert (cats["c0"]["fixed"], cats["c0"]["broke"], cats["c1"]["fixed"], cats["c1"]["broke"]) == (1, 1, 2, 1)
    assert cats["c0"]["p_holm"] == pytest.approx(min(1.0, 2 * min(cats["c0"]["p_value"], cats["c1"]["p_value"]))) \
        or cats["c1"]["p_holm"] == pytest.approx(1.0)
    assert "fixed 3" in c["summary"] and "broke 2" in c["summary"] and "p = " in c["summary"]


def test_one_model_across_two_runs_counts_cells_in_only_one(preset: Path, served: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _batch(preset, db, "before", "old")
    fewer = write_preset(tmp_path / "fewer.yaml", [choice_item(i, f"im{i}.png", answer="A", category=f"c{i % 2}")
                                                   for i in range(N_ITEMS - 1)])
    served.responder = lambda body: _responder({**body, "model": "new"})  # the "update": same name, new answers
    _batch(fewer, db, "after", "old", extra=("--no-cache",))  # same name, so ask again rather than reuse
    c = compare(Store(db), Side("before", "openai/old"), Side("after", "openai/old"), n_boot=0)
    assert c["matching"]["only_a"] == 1 and c["matching"]["only_b"] == 0
    assert c["matching"]["only_a_examples"][0]["item_id"] == "q7"
    assert c["overall"]["n"] == 7 and (c["overall"]["fixed"], c["overall"]["broke"]) == (2, 2)
    assert "Not compared: 1 question only in A and 0 only in B." in c["summary"]


def test_different_images_or_prompts_for_the_same_question_are_refused(preset: Path, served: Any,
                                                                         tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _batch(preset, db, "a", "old")
    write_png(tmp_path / "other.png", seed=99)
    swapped = write_preset(tmp_path / "swapped.yaml", [choice_item(i, "other.png" if i == 3 else f"im{i}.png",
                                                                   answer="A", category=f"c{i % 2}")
                                                       for i in range(N_ITEMS)])
    _batch(swapped, db, "b", "old")
    with pytest.raises(CompareError, match=r"item 'q3' \(original\) with different the image"):
        compare(Store(db), Side("a", "openai/old"), Side("b", "openai/old"))
    _batch(preset, db, "c", "old", extra=("--prompt", "medvh-mc"))
    with pytest.raises(CompareError, match="different the prompt template.*--allow-prompt-change"):
        compare(Store(db), Side("a", "openai/old"), Side("c", "openai/old"))
    c = compare(Store(db), Side("a", "openai/old"), Side("c", "openai/old"), allow_prompt_change=True, n_boot=0)
    assert any("prompt template" in d for d in c["differences"]) and c["overall"]["n"] == N_ITEMS


def test_unknown_model_and_sides(preset: Path, served: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _batch(preset, db, "r", "old", "new")
    store = Store(db)
    with pytest.raises(CompareError, match="run 'r' has no answers of model 'x'; its models: openai/new, openai/old"):
        compare(store, Side("r", "x"), Side("r", "openai/new"))
    with pytest.raises(CompareError, match="needs two models"):
        sides(store, ["r"], ["openai/old"])
    assert sides(store, ["r", "r"], []) == [(Side("r", "openai/new"), Side("r", "openai/new")),
                                            (Side("r", "openai/old"), Side("r", "openai/old"))]


def test_cli_json_and_fail_if_worse(preset: Path, served: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A lab's gate: B broke far more than it fixed; --fail-if-worse exits 1; the other way round it passes."""
    monkeypatch.setitem(RIGHT, "worse", set())
    monkeypatch.setitem(RIGHT, "best", set(range(40)))
    db = str(tmp_path / "s.db")
    many = write_preset(tmp_path / "many.yaml", [choice_item(i, f"im{i % N_ITEMS}.png", answer="A")
                                                 for i in range(40)])
    _batch(many, db, "g", "best", "worse")
    capsys.readouterr()
    code = main(["compare", "g", "-m", "openai/best", "-m", "openai/worse", "--db", db, "--json", "--boot", "0",
                 "--fail-if-worse", "5"])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 1 and data["worse"] is True and re.search(
        r"worse than A \(openai/best in run 'g'\) by 100.0 points, beyond chance", err)
    o = data["comparisons"][0]["overall"]
    assert (o["broke"], o["fixed"], o["accuracy_a"], o["accuracy_b"]) == (40, 0, 100.0, 0.0)
    assert worse_beyond(data["comparisons"][0], 5)
    # the other way round B is better: the gate passes; the text output names both sides and the flips
    code = main(["compare", "g", "-m", "openai/worse", "-m", "openai/best", "--db", db, "--boot", "0",
                 "--fail-if-worse", "5"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "A: openai/worse in run 'g'" in out and "fixed 40" in out and "Flipped questions" in out


def test_paper_metric_difference_has_a_paired_bootstrap_interval(tmp_path: Path, served: Any) -> None:
    """Two models on MediConfusion-style pairs: the set accuracy of each and the paired bootstrap interval of B - A.
    Pairs 0 and 1 have answer A on both images, pairs 2 and 3 A then B: "always B" gets no pair fully right, "always
    A" gets pairs 0 and 1."""
    for i in range(8):
        write_png(tmp_path / f"im{i}.png", seed=i)
    items = [choice_item(i, f"im{i}.png", answer="A" if i < 4 or i % 2 == 0 else "B", group=f"pair{i // 2}")
             for i in range(8)]
    for it in items:  # both images of a pair ask the same question with the same options
        k = int(it["id"][1:]) // 2
        it["question"] = f"What does image {k} show?"
        it["options"] = [f"finding {k}-0", f"finding {k}-1"]
    p = write_preset(tmp_path / "mediconfusion_pairs.yaml", items)
    served.responder = lambda body: "B" if body["model"] == "old" else "A"
    db = str(tmp_path / "s.db")
    _batch(p, db, "r", "old", "new")
    c = compare(Store(db), Side("r", "openai/old"), Side("r", "openai/new"), n_boot=60, seed=1)
    figs = {(r["family"], r["figure"]): r for r in c["paper"]}
    sa = figs[("mediconfusion", "set accuracy")]
    assert (sa["a"], sa["b"], sa["difference"]) == (0.0, 50.0, 50.0)
    lo, hi = sa["ci"]
    assert 0.0 <= lo <= 50.0 <= hi <= 100.0 and lo < hi and sa["n_boot"] == 60
    # the same seed gives the same interval
    again = compare(Store(db), Side("r", "openai/old"), Side("r", "openai/new"), n_boot=60, seed=1)
    assert again["paper"] == c["paper"]
    # a pair is one unit: every pair drawn twice leaves set accuracy, individual accuracy and confusion as they are
    import numpy as np

    from probe_ui.metrics import get_family, groups
    from probe_ui.metrics.registry import MetricContext
    from probe_ui.scoring import scored_answers
    from probe_ui.views.compare import _headlines, _resample, _units

    d = groups.prepare(scored_answers(Store(db), "r", models=["openai/new"]))
    units = _units(d)
    assert sorted({u.rsplit("\x1f", 1)[1] for u in units}) == [f"pair{k}" for k in range(4)]  # one unit a pair
    rows = [np.flatnonzero(units == u) for u in sorted(set(units))]
    fams, ctx = [get_family("mediconfusion")], MetricContext(n_boot=0, detail=False)
    want = _headlines(d, fams, "clean", ctx)
    assert want["mediconfusion · set accuracy"] == 50.0
    assert _headlines(_resample(d, rows, np.array([0, 1, 2, 3, 0, 1, 2, 3])), fams, "clean", ctx) == want
    assert _headlines(_resample(d, rows, np.array([0, 0, 0, 0])), fams, "clean", ctx)[
        "mediconfusion · set accuracy"] == 100.0  # pair 0 ("A" on both images) four times


# ---- a shipped preset, a noisy model, the CLI and the Results tab ------------------------------------------------

def _noisy(body: dict[str, Any]) -> str:
    """A model that answers A or B at random, differently for each request and seed (the request's ``seed``)."""
    import hashlib

    h = hashlib.sha256((json.dumps(body["messages"], sort_keys=True) + str(body.get("seed"))).encode()).digest()
    return "AB"[h[0] % 2]


def test_two_seeds_of_a_noisy_model_cli_and_results_tab_agree(app_server: Any, fake_openai: Any,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from app_server import api_client

    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    fake_openai.responder = _noisy
    db = str(app_server.db)
    for seed in ("1", "2"):
        assert main(["batch", "mediconfusion_pairs", "--suite", "rotations", "-m", "openai/noisy", "--seed", seed,
                     "--run", f"seed-{seed}", "--db", db, "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["compare", "seed-1", "seed-2", "--db", db, "--boot", "40"]) == 0
    printed = capsys.readouterr().out
    assert "A: openai/noisy in run 'seed-1'" in printed and "Per perturbation" in printed
    assert main(["compare", "seed-1", "seed-2", "--db", db, "--json", "--boot", "40"]) == 0
    want = json.loads(capsys.readouterr().out)["comparisons"][0]
    assert want["overall"]["n"] == 64 and want["overall"]["fixed"] + want["overall"]["broke"] > 0

    client = api_client(app_server.url)
    models = client.predict("seed-1", api_name="/compare_models")
    assert models["value"] == "openai/noisy" if isinstance(models, dict) else models == "openai/noisy"
    summary, by_cond, by_cat, paper, flips, msg = client.predict("seed-1", "openai/noisy", "seed-2", "openai/noisy",
                                                                 "robust", api_name="/compare")
    assert not msg and want["summary"] in summary
    got = {r[0]: dict(zip(by_cond["headers"], r)) for r in by_cond["data"]}
    for row in want["by_condition"]:
        g = got[row["what"]]  # the perturbation in words, as every view names it
        assert (g["questions"], g["B fixed"], g["B broke"]) == (row["n"], row["fixed"], row["broke"])
        assert g["B − A (points)"] == f"{row['difference']:+.1f}"
        assert g["p (Holm)"] == ("<0.001" if row["p_holm"] < 0.001 else f"{row['p_holm']:.3f}")
    assert len(flips["data"]) == want["overall"]["fixed"] + want["overall"]["broke"]
    assert {r[0]: r[1] for r in paper["data"]} == {f"{p['family']}: {p['figure']}": f"{p['a']:.1f}"
                                                   for p in want["paper"]}
    # a missing choice is said beside the section, not as a crash
    *_, msg = client.predict("seed-1", None, "seed-2", "openai/noisy", "robust", api_name="/compare")
    assert "choose A's model" in html.unescape(msg)


def test_report_with_a_baseline_has_the_paired_section(preset: Path, served: Any, tmp_path: Path) -> None:
    from probe_ui.views.report import build_report

    db = str(tmp_path / "s.db")
    _batch(preset, db, "before", "old")
    served.responder = lambda body: _responder({**body, "model": "new"})
    _batch(preset, db, "after", "old", extra=("--no-cache",))
    store = Store(db)
    page = build_report(store, "after", baseline="before")
    want = compare(store, Side("before", "openai/old"), Side("after", "openai/old"), n_boot=0)
    assert 'id="paired"' in page and "Paired comparison with the baseline run" in page
    assert html.escape(want["summary"], quote=True) in page
    assert "fixed 3" in want["summary"] and "broke 2" in want["summary"]
    assert "Questions that flipped (5;" in page


def test_resampling_keeps_units_whole_and_doubling_every_unit_changes_no_figure(tmp_path: Path) -> None:
    """The paired bootstrap draws whole units (a ProbMed image with all its questions) and a unit drawn twice is
    two replicas: drawing every unit twice must leave every headline figure as it is (each is a share)."""
    import numpy as np

    from probe_ui.importers import ImportOptions, import_results
    from probe_ui.metrics import detect_families, get_family, groups
    from probe_ui.metrics.registry import MetricContext
    from probe_ui.scoring import scored_answers
    from probe_ui.views.compare import _headlines, _resample, _units

    data = Path(__file__).parent / "data" / "importers"
    store = Store(str(tmp_path / "pm.db"))
    run = import_results(store, "probmed", str(data / "gpt4o_probmed.json"), ImportOptions()).run
    for parser in ("robust", "legacy"):
        d = groups.prepare(scored_answers(store, run, parser))
        units = _units(d)
        assert len(set(units)) == 6 and all("\x1fimage\x1f" in u for u in units)  # the fixture's six images
        universe = sorted(set(units))
        rows = [np.flatnonzero(units == u) for u in universe]
        fams = [get_family(n) for n in detect_families(d)]
        assert "probmed" in [f.name for f in fams]
        ctx = MetricContext(n_boot=0, detail=False)
        which = "paper" if parser == "legacy" else "clean"
        want = _headlines(d, fams, which, ctx)
        once = np.arange(len(universe))
        assert _headlines(_resample(d, rows, once), fams, which, ctx) == want
        twice = np.concatenate([once, once])
        doubled = _headlines(_resample(d, rows, twice), fams, which, ctx)
        assert doubled.keys() == want.keys()
        for k, v in want.items():
            assert doubled[k] == pytest.approx(v), k
