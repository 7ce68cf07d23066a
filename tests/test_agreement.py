"""Clinician agreement: Cohen's and Fleiss' kappa against values worked out by hand on small tables, seeded
bootstrap CIs, the raters' majority against the parser with the overruled answers, and the block in score --json
and the report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.metrics.agreement import cohen_kappa, fleiss_kappa, majority, rater_agreement
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run, scored_answers
from probe_ui.store import Store
from probe_ui.views import results as R
from probe_ui.views.report import build_report


def test_cohen_kappa_by_hand() -> None:
    a = ["correct"] * 5 + ["incorrect"] * 3 + ["unsure", "correct"]
    b = ["correct", "correct", "correct", "incorrect", "correct", "incorrect", "incorrect", "correct", "unsure",
         "correct"]
    # agreement on 8 of 10 answers; each rater: 6 correct, 3 incorrect, 1 unsure
    po, pe = 8 / 10, (6 * 6 + 3 * 3 + 1 * 1) / 100
    got = cohen_kappa(a, b, n_boot=0)
    assert got["observed"] == round(po, 4) and got["expected"] == round(pe, 4)
    assert got["kappa"] == round((po - pe) / (1 - pe), 4) == 0.6296
    assert got["n"] == 10 and got["ci"] is None
    # perfect agreement is 1; systematic disagreement is negative; one category only is undefined
    assert cohen_kappa(a, a, n_boot=0)["kappa"] == 1.0
    assert cohen_kappa(["correct", "incorrect"] * 3, ["incorrect", "correct"] * 3, n_boot=0)["kappa"] == -1.0
    assert cohen_kappa(["correct"] * 4, ["correct"] * 4, n_boot=0)["kappa"] is None


def test_fleiss_kappa_by_hand() -> None:
    # 4 answers x 3 raters: (c, c, c), (c, c, i), (i, i, i), (c, i, u)
    table = np.array([[3, 0, 0], [2, 1, 0], [0, 3, 0], [1, 1, 1]])
    p_bar = (1 + 1 / 3 + 1 + 0) / 4  # P_i = sum n_ik (n_ik - 1) / (3 * 2)
    pe = (6 / 12) ** 2 + (5 / 12) ** 2 + (1 / 12) ** 2
    got = fleiss_kappa(table, n_boot=0)
    assert got["kappa"] == round((p_bar - pe) / (1 - pe), 4) == round(22 / 82, 4)
    assert (got["observed"], got["expected"], got["n"]) == (round(p_bar, 4), round(pe, 4), 4)
    # Fleiss (1971) as Wikipedia works it: 10 subjects, 14 raters, 5 categories, kappa 0.210
    wiki = np.array([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
                     [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])
    assert round(fleiss_kappa(wiki, n_boot=0)["kappa"], 3) == 0.210
    # answers rated once carry no agreement: left out
    assert fleiss_kappa(np.vstack([table, [[1, 0, 0]]]), n_boot=0)["n"] == 4


def test_bootstrap_ci_is_seeded_and_brackets_the_estimate() -> None:
    rng = np.random.default_rng(3)
    cats = ["correct", "incorrect", "unsure"]
    a = list(rng.choice(cats, 80))
    b = [x if rng.random() < 0.7 else str(rng.choice(cats)) for x in a]
    one, two, other = cohen_kappa(a, b, seed=0), cohen_kappa(a, b, seed=0), cohen_kappa(a, b, seed=1)
    assert one["ci"] == two["ci"] and one["ci"] != other["ci"]
    assert one["ci"][0] < one["kappa"] < one["ci"][1]
    counts = np.array([[sum(x == c for x in (p, q)) for c in cats] for p, q in zip(a, b)])
    f = fleiss_kappa(counts, seed=0)
    assert f["ci"] == fleiss_kappa(counts, seed=0)["ci"] and f["ci"][0] < f["kappa"] < f["ci"][1]


def test_majority() -> None:
    assert majority({"a": "correct", "b": "correct", "c": "incorrect"}) == "correct"
    assert majority({"a": "correct", "b": "incorrect"}) is None  # a tie
    assert majority({"a": "unsure"}) == "unsure" and majority(None) is None


@pytest.fixture
def rated_run(tmp_path: Path) -> tuple[Store, str, Path, list[int]]:
    for i in range(4):
        write_png(tmp_path / f"i{i}.png", seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"i{i}.png", answer="AB"[i % 2]) for i in range(4)])
    db = tmp_path / "probe-ui.db"
    store = Store(db)
    run_batch(store, [load_preset(preset)], ["baseline/first", "baseline/last"],
              BatchOptions(run_name="r", progress=False))
    df = scored_answers(store, "r").sort_values(["model", "item_id"])
    return store, "r", db, [int(x) for x in df["response_id"]]


@pytest.mark.slow
def test_rater_agreement_block_from_the_scored_table(rated_run: tuple[Store, str, Path, list[int]]) -> None:
    store, run, _, ids = rated_run
    # baseline/first answers A: right on q0, q2; baseline/last answers B: right on q1, q3 (ids in model, item order)
    truth = dict(zip(ids, [True, False, True, False, False, True, False, True]))
    assert all(scored_answers(store, run).set_index("response_id").loc[i, "correct"] == ok for i, ok in truth.items())
    ratings = {  # two raters; ames agrees with the parser except on ids[0]; boyd except on ids[0] and ids[5]
        "ames": ["incorrect", "incorrect", "correct", "incorrect", "incorrect", "correct", "incorrect", "correct"],
        "boyd": ["incorrect", "incorrect", "correct", "incorrect", "incorrect", "incorrect", "incorrect", "correct"],
    }
    for rater, rs in ratings.items():
        for rid, r in zip(ids, rs):
            store.rate_response(rid, r, rater=rater)
    block = rater_agreement(scored_answers(store, run), n_boot=200)
    assert block["raters"] == ["ames", "boyd"] and block["method"] == "cohen"
    assert block["overall"]["kappa"] == cohen_kappa(ratings["ames"], ratings["boyd"], n_boot=0)["kappa"]
    # by hand: 7 of 8 alike; ames 3 correct / 5 incorrect, boyd 2 / 6
    po, pe = 7 / 8, (3 * 2 + 5 * 6) / 64
    assert block["overall"]["kappa"] == round((po - pe) / (1 - pe), 4)
    first = block["models"]["baseline/first"]  # ids[:4]: identical ratings
    assert first["kappa"] == 1.0 and first["n"] == 4
    vp = block["vs_parser"]
    # majorities: ids[0] incorrect (parser right: overruled), ids[5] tie (no majority); 7 answers compared
    assert (vp["answers"], vp["no_majority"], vp["overruled"]) == (7, 1, 1)
    assert (vp["agreement"]["numerator"], vp["agreement"]["denominator"]) == (6, 7)
    assert [o["response_id"] for o in block["overruled"]] == [ids[0]]
    o = block["overruled"][0]
    assert (o["model"], o["parsed"], o["parser"], o["majority"]) == ("baseline/first", "A", "right", "incorrect")
    assert o["votes"] == {"ames": "incorrect", "boyd": "incorrect"} and o["raw_text"]

    store.rate_response(ids[1], "unsure", rater="cole")  # a third rater: Fleiss, and every pair's Cohen
    three = rater_agreement(scored_answers(store, run), n_boot=0)
    assert three["method"] == "fleiss" and len(three["pairs"]) == 3
    assert [p["raters"] for p in three["pairs"]] == [["ames", "boyd"], ["ames", "cole"], ["boyd", "cole"]]
    assert three["pairs"][1]["n"] == 1  # ames and cole rated one answer in common


@pytest.mark.slow
def test_score_json_report_and_results_show_the_kappas(rated_run: tuple[Store, str, Path, list[int]],
                                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, run, db, ids = rated_run
    assert "rater_agreement" not in score_run(store, run)  # nobody rated yet
    assert 'id="agreement"' not in build_report(store, run)
    csv = tmp_path / "r.csv"
    lines = ["response_id,rater,rating,note"] + [f"{rid},{who},{'correct' if (k + n) % 3 else 'incorrect'},"
                                                 for k, rid in enumerate(ids) for n, who in enumerate("xyz")]
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["ratings", "import", str(csv), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["score", "--db", str(db), "--run", run, "--json"]) == 0
    block = json.loads(capsys.readouterr().out)["rater_agreement"]
    assert block["method"] == "fleiss" and block["raters"] == ["x", "y", "z"] and block["answers_rated"] == 8
    counts = [[sum((k + n) % 3 != 0 for n in range(3)), sum((k + n) % 3 == 0 for n in range(3)), 0]
              for k in range(8)]  # correct, incorrect, unsure per answer
    expected = fleiss_kappa(np.array(counts), n_boot=0)["kappa"]
    assert block["overall"]["kappa"] == expected and len(block["overall"]["ci"]) == 2
    tables = R.agreement_tables(scored_answers(store, run))
    assert tables["kappa"]["scope"].tolist()[:3] == ["all models", "model baseline/first", "model baseline/last"]
    assert tables["kappa"]["kappa"].iloc[0] == expected
    assert len(tables["overruled"]) == block["vs_parser"]["overruled"]
    html = build_report(store, run)
    assert '<section id="agreement">' in html
    assert f'data-col="kappa" data-value="{expected!r}"' in html
    assert math.isfinite(expected)
    empty = R.agreement_tables(pd.DataFrame())
    assert all(t.empty for t in empty.values())
