"""The Results tab's library (probe_ui.views.results) on stores filled by real batches of the baseline models."""

from __future__ import annotations

import io
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

from probe_ui import stats
from probe_ui.images import CanonicalImage
from probe_ui.metrics.base import wilson_ci
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run
from probe_ui.store import Store, StoreError, responses
from probe_ui.views import results as R

MODELS = ["baseline/first", "baseline/random"]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, str, str]:
    """MediConfusion pairs under rotations (two models) and ProbMed's adversarial pairs (two models)."""
    store = Store(tmp_path_factory.mktemp("results") / "x.db")
    mc = run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], MODELS,
                   BatchOptions(suites=["rotations"], progress=False))
    pm = run_batch(store, [load_preset(PRESETS_DIR / "probmed_adversarial.yaml")], MODELS,
                   BatchOptions(progress=False))
    assert mc.errors == 0 and pm.errors == 0
    return store, mc.run.name, pm.run.name


@pytest.fixture
def small_store(tmp_path: Path) -> tuple[Store, str]:
    """Four two-option items (answers A, B, A, B) answered by baseline/first, in a store of their own."""
    write_png(tmp_path / "a.png")
    items = [choice_item(i, "a.png", answer="AB"[i % 2], category=[["Chest"], ["Chest", "Cardiac"]][i % 2])
             for i in range(4)]
    preset = write_preset(tmp_path / "small.yaml", items)
    store = Store(tmp_path / "small.db")
    res = run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(progress=False))
    return store, res.run.name


def _frame(store: Store, name: str) -> pd.DataFrame:
    return store.answers_frame(store.get_run(name).id, full=True)


# ---- answers and filters ------------------------------------------------------------------------------------------

def test_answers_concatenates_runs_with_a_run_column(two_runs) -> None:
    store, mc, pm = two_runs
    df = R.answers(store, [mc, pm])
    mc_df, pm_df = _frame(store, mc), _frame(store, pm)
    assert len(df) == len(mc_df) + len(pm_df) > 0
    assert (df["run"] == mc).sum() == len(mc_df) and (df["run"] == pm).sum() == len(pm_df)
    assert df["response_id"].is_unique
    assert set(df.loc[df["run"] == mc, "response_id"]) == set(mc_df["response_id"])
    assert {"raw_text", "options", "category", "rating", "note"} <= set(df.columns)
    assert (df["rating"] == "unrated").all() and (df["note"] == "").all()
    assert len(R.answers(store, [mc, mc])) == len(mc_df)  # a run named twice is read once


def test_filters_select_the_right_rows(two_runs) -> None:
    store, mc, pm = two_runs
    full = R.answers(store, [mc, pm])

    first = R.answers(store, [mc, pm], models=["baseline/first"])
    assert len(first) == (full["model"] == "baseline/first").sum() and set(first["model"]) == {"baseline/first"}

    rot = R.answers(store, [mc, pm], conditions=["rotations/rot90", "rotations/rot180"])
    assert set(rot["condition"]) == {"rotations/rot90", "rotations/rot180"}
    assert len(rot) == full["condition"].isin(["rotations/rot90", "rotations/rot180"]).sum()

    cere = R.answers(store, [mc, pm], categories=["Cerebral", "Cardiac"])
    by_hand = sum(1 for c in full["category"] if {"Cerebral", "Cardiac"} & set(c))
    assert len(cere) == by_hand > 0
    assert all({"Cerebral", "Cardiac"} & set(c) for c in cere["category"])

    both = R.answers(store, [mc, pm], models=["baseline/random"], conditions=["original"], categories=["Cerebral"])
    mask = (full["model"] == "baseline/random") & (full["condition"] == "original") & \
        full["category"].map(lambda c: "Cerebral" in c)
    assert sorted(both["response_id"]) == sorted(full.loc[mask, "response_id"])

    assert len(R.answers(store, [mc, pm], models=[], conditions=None, categories=[], ratings=[])) == len(full)
    assert R.answers(store, [mc], models=["nobody"]).empty
    assert len(R.filter_answers(full, models=["baseline/first"])) == len(first)


def test_unknown_run_raises_the_store_error_naming_it(two_runs) -> None:
    store, mc, _ = two_runs
    with pytest.raises(StoreError, match="no-such-run"):
        R.answers(store, [mc, "no-such-run"])
    with pytest.raises(StoreError):
        R.answers(store, [""])


def test_rating_merge_takes_the_latest_rating(small_store) -> None:
    store, name = small_store
    ids = list(_frame(store, name)["response_id"])
    store.rate_response(ids[0], "incorrect", "first look")
    store.rate_response(ids[0], "correct", "second <look>")
    store.rate_response(ids[1], "unsure")
    df = R.answers(store, [name]).set_index("response_id")
    assert df.loc[ids[0], "rating"] == "correct" and df.loc[ids[0], "note"] == "second <look>"
    assert df.loc[ids[1], "rating"] == "unsure" and df.loc[ids[1], "note"] == ""
    assert (df.loc[ids[2:], "rating"] == "unrated").all() and (df.loc[ids[2:], "note"] == "").all()

    assert sorted(R.answers(store, [name], ratings=["correct", "unsure"])["response_id"]) == sorted(ids[:2])
    assert sorted(R.answers(store, [name], ratings=["unrated"])["response_id"]) == sorted(ids[2:])
    assert R.answers(store, [name], ratings=["incorrect"]).empty  # superseded
    assert R.filter_choices(R.answers(store, [name]))["ratings"] == ["correct", "unsure", "unrated"]


def test_filter_choices_lists_what_is_present(two_runs) -> None:
    store, mc, pm = two_runs
    df = R.answers(store, [mc, pm])
    ch = R.filter_choices(df)
    assert set(ch) == {"models", "conditions", "categories", "ratings"}
    assert ch["models"] == MODELS
    assert ch["conditions"] == sorted(set(df["condition"]))
    assert ch["categories"] == sorted({c for cats in df["category"] for c in cats})
    assert "Cerebral" in ch["categories"] and ch["ratings"] == ["unrated"]
    narrowed = R.filter_choices(R.answers(store, [mc], categories=["Cerebral"]))
    assert narrowed["conditions"] == ["original", "rotations/rot180", "rotations/rot270", "rotations/rot90"]
    assert R.filter_choices(df.iloc[:0]) == {"models": [], "conditions": [], "categories": [], "ratings": []}


# ---- accuracy by condition ----------------------------------------------------------------------------------------

def test_accuracy_by_condition_matches_a_hand_count(two_runs) -> None:
    store, mc, pm = two_runs
    df = R.answers(store, [mc, pm])
    table = R.accuracy_by_condition(df)
    assert list(table.columns) == ["model", "condition", "what was done", "n", "correct", "accuracy", "ci_low",
                                   "ci_high", "units"]
    assert dict(zip(table["condition"], table["what was done"]))["rotations/rot90"] == "rotated 90°"
    assert len(table) == df.groupby(["model", "condition"]).ngroups
    for row in table.itertuples():
        rows = [r for r in df.to_dict("records") if r["model"] == row.model and r["condition"] == row.condition
                and r["error"] is None and r["correct"] is not None]
        hits = sum(1 for r in rows if bool(r["correct"]))
        assert (row.n, row.correct) == (len(rows), hits)
        assert row.accuracy == pytest.approx(100 * hits / len(rows))
        # the interval over units of evidence (issue 43), counted by hand: a ProbMed image, a MediConfusion pair
        unit = [str((r["attributes"] or {}).get("image_id") or r["item_group"]) for r in rows]
        by_unit = pd.Series([bool(r["correct"]) for r in rows]).groupby(unit).agg(["sum", "size"])
        by_item = pd.Series([bool(r["correct"]) for r in rows]).groupby([r["item_id"] for r in rows]).agg(
            ["sum", "size"])
        iv = stats.clustered_wilson(by_unit["sum"], by_unit["size"], nested=(by_item["sum"], by_item["size"]))
        assert row.units == len(by_unit) < len(rows)  # two images a pair, two questions an image
        assert (row.ci_low, row.ci_high) == (round(100 * iv.low, 4), round(100 * iv.high, 4))
        assert (row.ci_low, row.ci_high) != wilson_ci(hits, len(rows)) or hits in (0, len(rows))
    first = table[table["model"] == "baseline/first"]
    assert first["condition"].iloc[0] == "original"  # original first, then the perturbed conditions


def test_baseline_first_scores_the_share_of_answers_a(two_runs) -> None:
    store, mc, _ = two_runs
    df = R.answers(store, [mc], models=["baseline/first"])
    table = R.accuracy_by_condition(df).set_index("condition")
    assert len(table) == 4
    for cond, g in df.groupby("condition"):
        assert table.loc[cond, "accuracy"] == pytest.approx(100 * (g["answer_label"] == "A").mean())
    pooled = 100 * table["correct"].sum() / table["n"].sum()
    assert pooled == pytest.approx(score_run(store, mc)["models"]["baseline/first"]["accuracy"]["value"])


def test_errors_are_left_out_and_invalid_answers_count_as_wrong(small_store) -> None:
    store, name = small_store
    df = R.answers(store, [name])
    assert list(df["correct"]) == [True, False, True, False]  # baseline/first answers A to A, B, A, B
    df = df.astype({"parsed": object, "invalid": object, "correct": object, "error": object})
    df.loc[0, ["parsed", "invalid", "correct"]] = [None, True, False]  # an unreadable answer (right item)
    df.loc[1, ["parsed", "invalid", "correct", "error"]] = [None, None, None, "provider: HTTP 500"]
    row = R.accuracy_by_condition(df).iloc[0]
    assert (row.n, row.correct) == (3, 1) and row.accuracy == pytest.approx(100 / 3)

    conf = R.confusion(df, "baseline/first")
    assert int(conf.to_numpy().sum()) == 3  # the error row is not an answer
    assert conf.loc["A", "invalid"] == 1 and conf.loc["A", "A"] == 1 and conf.loc["B", "A"] == 1
    assert list(conf.columns) == ["A", "B", "invalid"]


def test_plot_accuracy_by_condition_has_one_bar_and_error_bar_per_cell(two_runs) -> None:
    store, mc, _ = two_runs
    df = R.answers(store, [mc])
    table = R.accuracy_by_condition(df)
    fig = R.plot_accuracy_by_condition(df)
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == len(MODELS) and sum(len(c.patches) for c in bars) == len(table)
    assert all(c.errorbar is not None for c in bars)
    for c in bars:
        segments = c.errorbar.lines[2][0].get_segments()
        assert len(segments) == len(c.patches)
    heights = sorted(p.get_height() for c in bars for p in c.patches)
    assert heights == pytest.approx(sorted(table["accuracy"]))
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["original", "rotated 180°", "rotated 270°", "rotated 90°"]  # in words, not code
    assert all(t.get_rotation() > 0 for t in ax.get_xticklabels())  # long names are rotated
    assert "%" in ax.get_ylabel() and ax.get_ylim()[1] >= 100
    assert [t.get_text() for t in ax.get_legend().get_texts()] == MODELS


# ---- confusion and categories -------------------------------------------------------------------------------------

def test_confusion_counts_every_answer(two_runs) -> None:
    store, mc, _ = two_runs
    df = R.answers(store, [mc])
    for model in MODELS:
        conf = R.confusion(df, model)
        ok = df[(df["model"] == model) & df["error"].isna()]
        assert int(conf.to_numpy().sum()) == len(ok)
        assert conf.index.name == "expected" and conf.columns.name == "parsed"
        for label in ("A", "B"):
            assert conf.loc[label].sum() == (ok["answer_label"] == label).sum()
    first = R.confusion(df, "baseline/first")
    assert first["A"].sum() == first.to_numpy().sum()  # baseline/first always answers A
    assert R.confusion(df, "nobody").empty

    fig = R.plot_confusion(df)
    assert len(fig.axes) == len(MODELS)
    for ax, model in zip(fig.axes, MODELS):
        conf = R.confusion(df, model)
        assert ax.get_title() == model
        numbers = [int(t.get_text()) for t in ax.texts]
        assert len(numbers) == conf.size and sum(numbers) == int(conf.to_numpy().sum())


def test_category_accuracy_counts_a_row_for_each_of_its_categories(two_runs) -> None:
    store, mc, _ = two_runs
    df = R.answers(store, [mc])
    table = R.category_accuracy(df)
    assert list(table.columns) == MODELS
    assert list(table.index) == sorted({c for cats in df["category"] for c in cats})
    for cat in table.index:
        for model in MODELS:
            rows = df[(df["model"] == model) & df["category"].map(lambda c: cat in c)]
            assert table.loc[cat, model] == pytest.approx(100 * rows["correct"].astype(bool).mean())
    multi = df[df["category"].map(len) > 1]
    assert len(multi) > 0  # window-2a/2b are both Pulmonary and Spinal

    fig = R.plot_category_heatmap(df)
    heat = fig.axes[0]
    assert len(fig.axes) == 2  # the heatmap and its colour bar
    assert len(heat.texts) == table.size
    image = heat.images[0]
    assert image.get_clim() == (0, 100) and image.get_cmap().name == "RdYlGn"
    assert [t.get_text() for t in heat.get_yticklabels()] == list(table.index)


def test_uncategorised_rows_are_grouped(small_store) -> None:
    store, name = small_store
    df = R.answers(store, [name])
    df.loc[0, "category"] = None
    table = R.category_accuracy(df)
    assert set(table.index) == {"(none)", "Chest", "Cardiac"}
    assert table.loc["Chest", "baseline/first"] == pytest.approx(100 * 1 / 3)
    assert table.loc["Cardiac", "baseline/first"] == 0.0


# ---- metric tables ------------------------------------------------------------------------------------------------

def test_metric_tables_are_the_score_commands_numbers(two_runs) -> None:
    store, mc, pm = two_runs
    tables = R.metric_tables(R.answers(store, [mc, pm]))
    reports = {mc: score_run(store, mc), pm: score_run(store, pm)}
    over = tables["overview"]
    assert len(over) == 2 * len(MODELS)
    for row in over.itertuples():
        m = reports[row.run]["models"][row.model]
        assert row.accuracy == round(m["accuracy"]["value"], 2)
        assert (row.ci_low, row.ci_high) == tuple(round(x, 2) for x in m["accuracy"]["ci"])
        assert (row.n, row.errors) == (m["n"], m["errors"])
        assert row.invalid == round(m["invalid_rate"]["value"], 2)
    exact = R.metric_tables(R.answers(store, [mc]), digits=None)["overview"]
    assert list(exact["accuracy"]) == [reports[mc]["models"][m]["accuracy"]["value"] for m in MODELS]

    assert {"overview", "mediconfusion", "groups", "probmed"} <= set(tables)
    for name, t in tables.items():
        assert {"run", "model"} <= set(t.columns), name
    mcf = tables["mediconfusion"]
    assert set(mcf["run"]) == {mc}
    got = mcf[(mcf["model"] == "baseline/first") & (mcf["metric"] == "set_accuracy")].iloc[0]
    want = reports[mc]["models"]["baseline/first"]["paper"]["mediconfusion"]["set_accuracy"]
    assert (got["value"], got["numerator"], got["denominator"]) == (want["value"], want["numerator"],
                                                                     want["denominator"])
    assert set(tables["probmed"]["run"]) == {pm}
    assert R.metric_tables(R.answers(store, []))["overview"].empty


def test_paper_sections_is_what_the_cli_prints(two_runs) -> None:
    from probe_ui.views.score_text import format_score_markdown

    store, mc, _ = two_runs
    report = score_run(store, mc)
    md = format_score_markdown(report)
    for section, _, _ in R.paper_sections(report):
        assert f"### {section}" in md


# ---- drill-down ---------------------------------------------------------------------------------------------------

def test_response_table_has_the_scan_columns_and_a_row_limit(two_runs) -> None:
    store, mc, pm = two_runs
    df = R.answers(store, [mc, pm])
    t = R.response_table(df)
    assert list(t.columns) == R.RESPONSE_COLUMNS
    assert list(t["response_id"]) == list(df["response_id"])
    big = pd.concat([df] * (600 // len(df) + 1), ignore_index=True)
    assert len(big) > 500 and len(R.response_table(big)) == 500
    assert list(R.response_table(df.iloc[:0]).columns) == R.RESPONSE_COLUMNS


def test_response_detail_shows_what_was_sent_and_said(two_runs) -> None:
    store, mc, _ = two_runs
    df = R.answers(store, [mc])
    row = df[(df["condition"] == "rotations/rot90") & (df["model"] == "baseline/random")].iloc[0]
    stored = store.get_response(int(row["response_id"]))
    sent_ids = [p["image_id"] for m in stored["messages"] for p in m["content"] if p["type"] == "image"]
    images, text = R.response_detail(store, int(row["response_id"]))
    assert [CanonicalImage.from_pil(im).id for im in images] == sent_ids
    assert images[0].tobytes() == store.get_image(sent_ids[0]).pil().tobytes()
    assert f"```text\n{stored['raw_text']}\n```" in text
    assert row["question"] in text
    for letter, option in zip("AB", row["options"]):
        assert f"{letter}: {option}" in text
    user_text = "".join(p["text"] for p in stored["messages"][-1]["content"] if p["type"] == "text")
    assert user_text in text  # the exact prompt
    assert "rotated 90°" in text and "rotate(angle=90)" in text and "**Rating**: unrated" in text
    assert "**correct**: " + ("yes" if row["correct"] else "no") in text
    with pytest.raises(StoreError):
        R.response_detail(store, 10 ** 9)


def test_response_detail_falls_back_to_the_variants_images(small_store) -> None:
    store, name = small_store
    rid = int(_frame(store, name)["response_id"].iloc[0])
    with store.engine.begin() as c:
        c.execute(responses.update().where(responses.c.id == rid).values(messages=[]))
    images, _ = R.response_detail(store, rid)
    want = store.get_response(rid)["image_ids"]
    assert [CanonicalImage.from_pil(im).id for im in images] == want


def _rendered(markdown: str) -> str:
    markdown_it = pytest.importorskip("markdown_it")
    return markdown_it.MarkdownIt("commonmark", {"html": True}).render(markdown)


def test_planted_markup_is_shown_literally_not_rendered(small_store) -> None:
    store, name = small_store
    rid = int(_frame(store, name)["response_id"].iloc[0])
    planted = "<script>alert(1)</script>\n```\n# not a heading\n````"
    with store.engine.begin() as c:
        c.execute(responses.update().where(responses.c.id == rid).values(raw_text=planted))
    store.rate_response(rid, "unsure", "<img src=x onerror=alert(2)> **bold**")
    _, text = R.response_detail(store, rid)

    fence = re.search(r"^(`{3,})text\n" + re.escape(planted) + r"\n\1$", text, re.M)
    assert fence and len(fence.group(1)) == 5  # longer than the longest backtick run in the reply
    html = _rendered(text)
    assert "<script" not in html and "<img" not in html and "<h1>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "**bold**" in html

    inline = _rendered(R.md_text("<b>x</b> *y* [l](javascript:alert(3)) `c`"))
    assert inline.strip() == "<p>&lt;b&gt;x&lt;/b&gt; *y* [l](javascript:alert(3)) `c`</p>"


# ---- empty inputs and threads -------------------------------------------------------------------------------------

def test_empty_inputs_give_empty_frames_and_no_answers_figures(two_runs) -> None:
    store, mc, _ = two_runs
    empty = R.answers(store, [])
    assert empty.empty and {"run", "model", "condition", "rating"} <= set(empty.columns)
    none = R.answers(store, [mc], models=["nobody"])
    for df in (empty, none):
        assert R.accuracy_by_condition(df).empty
        assert R.category_accuracy(df).empty
        assert R.confusion(df, "baseline/first").empty
        assert R.response_table(df).empty
        assert R.filter_answers(df, categories=["Cerebral"]).empty
        for plot in (R.plot_accuracy_by_condition, R.plot_confusion, R.plot_category_heatmap):
            fig = plot(df)
            assert [t.get_text() for t in fig.texts] == ["no answers"] and fig.get_label().endswith("no answers")


def test_figures_can_be_drawn_from_several_threads(small_store) -> None:
    store, name = small_store
    df = R.answers(store, [name])

    def png(plot) -> bytes:
        buf = io.BytesIO()
        plot(df).savefig(buf, format="png", dpi=40)
        return buf.getvalue()

    plots = [R.plot_accuracy_by_condition, R.plot_confusion, R.plot_category_heatmap] * 2
    with ThreadPoolExecutor(3) as pool:
        pngs = list(pool.map(png, plots))
    assert all(p.startswith(b"\x89PNG") for p in pngs)



def test_a_view_names_the_runs_and_filters_it_shows() -> None:
    from probe_ui.views.results import selection_words

    assert selection_words(["r1", "r2"], "legacy", models=["m"], conditions=["rotate"],
                           labels={"rotate": "rotated 90°"}) == (
        "Showing runs r1, r2 · answer parser: legacy · models: m · perturbations: rotated 90° · categories: all · "
        "ratings: all")
    assert selection_words("r1").startswith("Showing run r1 · answer parser: robust · models: all")
