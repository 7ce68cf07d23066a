"""The Stress tab's library: the variants × models matrix, its summary and its HTML, on a real baseline batch."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from probe_ui import stress as stress_runs
from probe_ui.metrics import circular_eval
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.presets.suites import SuiteError
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views import stress

MODELS = ["baseline/first", "baseline/random"]
CELL_RE = re.compile(r"<td ([^>]*data-item=[^>]*)>(.*?)</td>")
ATTR_RE = re.compile(r'([a-z-]+)="([^"]*)"')


@pytest.fixture(scope="module")
def frame(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    store = Store(tmp_path_factory.mktemp("stress") / "probe.db")
    result = run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], MODELS,
                       BatchOptions(suites=["circular"], progress=False))
    assert result.errors == 0 and result.answered == result.planned
    df = store.answers_frame(result.run.id, full=True)
    store.close()
    return df


def html_cells(page: str) -> dict[tuple[str, str, str], dict[str, str]]:
    """(item, condition, model) → the cell's attributes (unescaped) and its text."""
    import html

    out = {}
    for attrs, text in CELL_RE.findall(page):
        a = {k: html.unescape(v) for k, v in ATTR_RE.findall(attrs)}
        a["text"] = html.unescape(text)
        out[(a["data-item"], a["data-condition"], a["data-model"])] = a
    return out


def hand_originals(df: pd.DataFrame) -> dict[tuple[str, str], bool]:
    o = df[df["condition"] == "original"]
    return {(m, i): bool(c) for m, i, c in zip(o["model"], o["item_id"], o["correct"])}


# ---- matrix --------------------------------------------------------------------------------------------------------
def test_matrix_is_variants_by_models_with_originals_first(frame: pd.DataFrame) -> None:
    m = stress.matrix(frame)
    variants = frame.drop_duplicates(["item_id", "condition"])
    assert m.shape == (len(variants), len(MODELS)) == (32, 2)
    assert list(m.columns) == MODELS
    assert list(m.index.names) == ["item_id", "condition"]
    assert set(m.index) == set(zip(variants["item_id"], variants["condition"]))
    # every item: its original, then the suite's condition
    items = list(dict.fromkeys(m.index.get_level_values("item_id")))
    assert len(items) == 16
    assert list(m.index) == [(i, c) for i in items for c in ("original", "circular/shift1")]
    v = stress.matrix_values(frame)
    assert v.shape == m.shape and list(v.columns) == MODELS and (v.index == m.index).all()
    assert set(np.unique(v.to_numpy())) <= {0.0, 1.0}


def test_first_baseline_is_right_exactly_where_the_answer_is_a(frame: pd.DataFrame) -> None:
    m, v = stress.matrix(frame), stress.matrix_values(frame)
    rows = frame[frame["model"] == "baseline/first"]
    assert len(rows) == 32
    for item, cond, label in zip(rows["item_id"], rows["condition"], rows["answer_label"]):
        assert v.loc[(item, cond), "baseline/first"] == (1.0 if label == "A" else 0.0)
        assert m.loc[(item, cond), "baseline/first"] == ("✓ A" if label == "A" else "✗ A")
    # the random baseline's cells read its parsed answers
    for _, r in frame[frame["model"] == "baseline/random"].iterrows():
        want = ("✓ " if r["correct"] else "✗ ") + r["parsed"]
        assert m.loc[(r["item_id"], r["condition"]), "baseline/random"] == want


def test_errors_invalid_and_missing_cells(frame: pd.DataFrame) -> None:
    df = frame.astype({"error": object, "parsed": object, "correct": object, "invalid": object})
    first = df.index[(df["model"] == "baseline/random") & (df["condition"] == "original")]
    err, bad = first[0], first[1]
    df.loc[err, ["error", "parsed", "correct", "invalid"]] = ["fake: HTTP 500", None, None, None]
    df.loc[bad, ["parsed", "correct", "invalid"]] = [None, False, True]
    dropped = df.index[(df["model"] == "baseline/first") & (df["condition"] == "circular/shift1")][0]
    df = df.drop(index=dropped)
    m, v = stress.matrix(df), stress.matrix_values(df)
    key = lambda i: (df.loc[i, "item_id"], df.loc[i, "condition"])  # noqa: E731
    assert m.loc[key(err), "baseline/random"] == "error" and np.isnan(v.loc[key(err), "baseline/random"])
    assert m.loc[key(bad), "baseline/random"] == "invalid" and v.loc[key(bad), "baseline/random"] == 0.0
    gone = (frame.loc[dropped, "item_id"], frame.loc[dropped, "condition"])
    assert m.loc[gone, "baseline/first"] == "" and np.isnan(v.loc[gone, "baseline/first"])
    s = stress.summary(df).set_index("model")
    assert s.loc["baseline/random", "errors"] == 1 and s.loc["baseline/random", "answered"] == 31
    cells = html_cells(stress.matrix_html(df))
    assert "stress-error" in cells[(*key(err), "baseline/random")]["class"]
    assert cells[(*key(err), "baseline/random")]["title"] == "fake: HTTP 500"
    assert "stress-invalid" in cells[(*key(bad), "baseline/random")]["class"]
    assert "stress-missing" in cells[(*gone, "baseline/first")]["class"]


# ---- summary -------------------------------------------------------------------------------------------------------
def test_summary_equals_hand_counts(frame: pd.DataFrame) -> None:
    s = stress.summary(frame, "circular").set_index("model")
    assert list(s.index) == MODELS
    orig = hand_originals(frame)
    for model in MODELS:
        g = frame[frame["model"] == model]
        o, p = g[g["condition"] == "original"], g[g["condition"] != "original"]
        assert s.loc[model, "accuracy_original"] == pytest.approx(100 * o["correct"].mean())
        assert s.loc[model, "accuracy_perturbed"] == pytest.approx(100 * p["correct"].mean())
        # flip rate: perturbed variants whose correctness differs from their item's original
        flips = sum(bool(c) != orig[(model, i)] for i, c in zip(p["item_id"], p["correct"]))
        broke = sum(orig[(model, i)] and not c for i, c in zip(p["item_id"], p["correct"]))
        assert s.loc[model, "pairs_compared"] == len(p) == 16
        assert s.loc[model, "right_wrong_changes"] == flips and s.loc[model, "broke"] == broke
        assert s.loc[model, "fixed"] == flips - broke
        assert s.loc[model, "correctness_flip_rate"] == pytest.approx(100 * flips / len(p))
        # group consistency: groups (an item and its shift) all of whose variants are right
        per_group = g.groupby("group_id")["correct"].agg(["all", "size"])
        assert (per_group["size"] == 2).all()
        assert len(per_group) == 16
        assert s.loc[model, "groups: group consistency"] == pytest.approx(100 * per_group["all"].mean())
        # the suite's own metric family (groups: CircularEval), as probe_ui.metrics computes it
        assert s.loc[model, "groups: CircularEval"] == pytest.approx(circular_eval(g)["circular"]["value"])
        assert s.loc[model, "groups: CircularEval"] == pytest.approx(100 * per_group["all"].mean())
        assert s.loc[model, "answered"] == 32 and s.loc[model, "errors"] == 0
    # always answering A cannot be right on both orders of two options; its every shift flips
    assert s.loc["baseline/first", "groups: group consistency"] == 0.0
    assert s.loc["baseline/first", "correctness_flip_rate"] == 100.0


def test_summary_without_suite_and_unknown_suite(frame: pd.DataFrame) -> None:
    s = stress.summary(frame)
    assert list(s.columns[:len(stress.BASE_COLUMNS)]) == stress.BASE_COLUMNS and len(s) == 2
    # without a suite, every family with data still contributes its headline figures
    assert "groups: CircularEval" in s.columns
    with pytest.raises(SuiteError, match="unknown suite"):
        stress.summary(frame, "no-such-suite")


def test_empty_frame(frame: pd.DataFrame) -> None:
    empty = frame.iloc[:0]
    assert stress.matrix(empty).shape == (0, 0)
    assert stress.summary(empty, "circular").empty
    assert "No answers yet" in stress.matrix_html(empty)


# ---- HTML ----------------------------------------------------------------------------------------------------------
def test_html_marks_exactly_the_cells_a_perturbation_broke(frame: pd.DataFrame) -> None:
    page = stress.matrix_html(frame)
    cells = html_cells(page)
    assert len(cells) == 32 * 2
    orig = hand_originals(frame)
    expected = {(i, c, m) for m, i, c, ok in zip(frame["model"], frame["item_id"], frame["condition"],
                                                  frame["correct"])
                if c != "original" and orig[(m, i)] and not ok}
    assert expected  # baseline/first breaks every item whose answer is A
    marked = {k for k, a in cells.items() if "stress-broke" in a["class"].split()}
    titled = {k for k, a in cells.items() if a.get("title") == stress.BROKE_TITLE}
    assert marked == titled == expected
    assert page.count(f'title="{stress.BROKE_TITLE}"') == len(expected)
    assert (stress.broken(frame).to_numpy().sum()) == len(expected)
    for k, a in cells.items():
        if k in expected:
            continue
        want = "stress-ok" if a["text"].startswith("✓") else "stress-wrong"
        assert want in a["class"].split(), (k, a)
    # colours: green right, red wrong, a stronger red for broken cells; and a legend
    assert "#c8e6c9" in page and "#ffcdd2" in page and "#d32f2f" in page
    assert 'class="stress-legend"' in page and "broke" in page.split("<table")[0]


def test_html_escapes_user_and_model_strings(frame: pd.DataFrame) -> None:
    df = frame.copy()
    df["model"] = df["model"].replace({"baseline/first": "<b>first</b>"})
    row = df.index[df["model"] == "baseline/random"][0]
    df.loc[row, "parsed"] = "<b>"
    df.loc[df["item_id"] == "modality-1a", "item_id"] = '<script>alert("x")</script>'
    df.loc[df["condition"] == "circular/shift1", "condition"] = 'shift"<i>'
    page = stress.matrix_html(df)
    assert "<b>" not in page and "<script>" not in page and "<i>" not in page
    assert "&lt;b&gt;first&lt;/b&gt;" in page and "&lt;script&gt;" in page and "shift&quot;&lt;i&gt;" in page
    assert "✗ &lt;b&gt;" in page or "✓ &lt;b&gt;" in page
    cells = html_cells(page)
    assert ('<script>alert("x")</script>', 'shift"<i>', "<b>first</b>") in cells
    assert stress.matrix(df).columns[0] == "<b>first</b>"  # the DataFrame keeps the raw names


def test_html_is_well_formed(frame: pd.DataFrame) -> None:
    from html.parser import HTMLParser

    class Check(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            self.stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            assert self.stack and self.stack.pop() == tag, tag

    p = Check()
    p.feed(stress.matrix_html(frame))
    assert p.stack == []


def test_duplicate_prompts_get_their_own_columns(frame: pd.DataFrame, tmp_path: Path) -> None:
    other = frame[frame["model"] == "baseline/first"].assign(prompt="other-template")
    other = other.assign(response_id=other["response_id"] + 10_000)
    m = stress.matrix(pd.concat([frame, other], ignore_index=True))
    assert m.shape[0] == 32
    assert "baseline/first · other-template" in m.columns and "baseline/random" in m.columns


# ---- running a stress test (library and CLI) ------------------------------------------------------------------------
def test_stress_command_on_one_item_prints_the_matrix_and_names_the_run(tmp_path, capsys) -> None:
    from probe_ui.cli import main

    db = str(tmp_path / "probe-ui.db")
    args = ["stress", "medblink_depth/depth-echo", "--suite", "dot-colours", "-m", "baseline/first",
            "-m", "baseline/random", "--db", db, "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["run"] == "stress-medblink_depth/depth-echo-dot-colours-baseline/first+baseline/random-seed0"
    assert {r["item_id"] for r in out["matrix"]} == {"depth-echo"}
    assert len(out["matrix"]) == 6  # six colour permutations (the preset asks no original)
    assert {r["model"] for r in out["summary"]} == {"baseline/first", "baseline/random"}
    assert all("medblink: macro accuracy" in r for r in out["summary"])
    # other models make another run, so the matrices never mix; the same command resumes its own run
    assert main(args[:4] + ["-m", "baseline/last", "--db", db, "--json"]) == 0
    other = json.loads(capsys.readouterr().out)
    assert other["run"] != out["run"] and {r["model"] for r in other["summary"]} == {"baseline/last"}
    assert main(args[:-1]) == 0
    text = capsys.readouterr().out
    assert "depth-echo" in text and "dot-colours/perm0" in text and "medblink: macro accuracy" in text


def test_stress_target_errors_name_what_was_not_found(tmp_path) -> None:
    from probe_ui.presets import PresetError

    with pytest.raises(PresetError, match="no-such-preset"):
        stress_runs.resolve_target("no-such-preset/x")
    preset, items = stress_runs.resolve_target("medblink_depth/depth-echo")
    with pytest.raises(PresetError, match="no item 'nope'"):
        stress_runs.run_stress(Store(tmp_path / "s.db"), "dot-colours", ["baseline/first"], preset=preset,
                          item_ids=("nope",))
