"""One metric, one name, one definition (issue 22): every view's figure names are registered, and a name means one
number.

"flip rate" was 50.0 % (n = 2) in the Results groups table and 33.3 % (3 pairs) in the report's "Consistency across
variants" for the same run and model: two quantities under one name. The walk below reads what each view shows
people (``probe-ui score``'s table and JSON, the Results tab's overview and family tables, the Stress summary, the
report's overview and consistency tables) for runs that hold every metric family the bundled presets and suites
reach, then checks that each label names a registered figure (:func:`probe_ui.metrics.registry.find_figure`) and
that every view showing a figure for a run and model shows the same value.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.metrics import headlines
from probe_ui.metrics.registry import FIGURES, find_figure
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run, scored_answers
from probe_ui.store import Store
from probe_ui.views import results as R
from probe_ui.views import stress
from probe_ui.views.report import build_report

MODELS = ["baseline/first", "baseline/random"]
#: columns that say what a row is, not a figure
KEYS = {"run", "model", "95 % CI"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[str]]:
    """A run over the bundled benchmarks with suites that move the answer and suites that keep it (every paper
    family, groups, CircularEval, the illusion tests), and a severity sweep (robustness curves)."""
    tmp = tmp_path_factory.mktemp("names")
    store = Store(tmp / "probe-ui.db")
    papers = [load_preset(p) for p in ("mediconfusion_pairs", "medblink_orientation", "probmed_adversarial",
                                       "medvh_nota")]
    run_batch(store, papers, MODELS,
              BatchOptions(run_name="papers", suites=["circular", "rotations", "illusion"], progress=False))
    for i in range(3):
        write_png(tmp / f"im{i}.png", seed=i)
    sweep = load_preset(str(write_preset(tmp / "sweep.yaml", [choice_item(i, f"im{i}.png", answer="AB"[i % 2])
                                                              for i in range(3)])))
    run_batch(store, [sweep], MODELS, BatchOptions(run_name="sweep", suites=["severity"], progress=False))
    return store, ["papers", "sweep"]


# ---- reading what each view shows --------------------------------------------------------------------------------
class Tables(HTMLParser):
    """Every <table> of an HTML text: its class, the family of the element around it (``data-family``), and its
    rows as cell texts (th and td alike)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, Any]] = []
        self.families: list[str | None] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("div", "section"):
            self.families.append(a.get("data-family"))
        elif tag == "table":
            fam = next((f for f in reversed(self.families) if f), None)
            self.tables.append({"class": a.get("class") or "", "family": fam, "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("div", "section") and self.families:
            self.families.pop()
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1]["rows"].append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables_of(html: str, cls: str) -> list[dict[str, Any]]:
    parser = Tables()
    parser.feed(html)
    return [t for t in parser.tables if cls in t["class"].split()]


def number(text: Any) -> float | None:
    """The number a cell shows ("72.5 % [61.2–81.4] n=40" → 72.5; "–" → None)."""
    if text is None or (isinstance(text, float) and math.isnan(text)):
        return None
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    m = re.match(r"\s*(-?\d+(?:\.\d+)?)", str(text))
    return float(m.group(1)) if m else None


Shown = dict[tuple[str, str, str], float | None]  # (run, model, label) -> value, as one view shows it


def score_view(store: Store, run: str) -> Shown:
    """``probe-ui score --json``: the run figures by their registered names, and each family's headline figures."""
    rep = score_run(store, run)
    out: Shown = {}
    for model, r in rep["models"].items():
        acc = r["accuracy"]
        for label, value in (("accuracy", acc["value"]), ("random guess", acc.get("random")),
                             ("unreadable", r["invalid_rate"]["value"]), ("refused", r["refusal_rate"]["value"]),
                             ("failed calls", r["errors"]), ("answered", r["answered"]),
                             ("scored answers", r["n"])):
            out[(run, model, label)] = value
        for fam, heads in headlines(r.get("paper") or {}).items():
            for label, leaf in heads.items():
                out[(run, model, f"{fam}: {label}")] = stress.leaf_value(leaf)
    return out


def cli_names(store: Store, run: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The figure names of ``probe-ui score``'s table header (its values are those of the JSON above)."""
    db = str(store.engine.url.database)
    assert main(["score", "--db", db, "--run", run, "--format", "markdown"]) == 0
    header = capsys.readouterr().out.splitlines()[2]
    return [c.strip() for c in header.strip("|").split("|")]


def results_view(df: pd.DataFrame) -> Shown:
    """The Results tab: the overview table and every family's headline table."""
    out: Shown = {}
    ov = R.overview_for_people(df)
    for rec in ov.to_dict("records"):
        for label, value in rec.items():
            if label not in ("run", "model"):
                out[(str(rec["run"]), str(rec["model"]), label)] = number(value)
    run = str(df["run"].iloc[0])
    for t in tables_of(R.families_html(df), "pu-fam"):
        head, *rows = t["rows"]
        for row in rows:
            model = row[0]
            for label, cell in zip(head[1:], row[1:]):
                out[(run, model, f"{t['family']}: {label}")] = number(cell)
    return out


def stress_view(df: pd.DataFrame) -> Shown:
    """The Stress summary as the Stress tab shows it."""
    run = str(df["run"].iloc[0])
    people = stress.summary_for_people(stress.summary(df))
    return {(run, str(rec["model"]), label): number(value) for rec in people.to_dict("records")
            for label, value in rec.items() if label != "model"}


def report_view(store: Store, run: str) -> Shown:
    """The report: its overview and "Consistency across variants" tables."""
    html = build_report(store, run)
    out: Shown = {}
    for cls, family in (("overview", None), ("consistency", "groups")):
        for t in tables_of(html, cls):
            head, *rows = t["rows"]
            for row in rows:
                for label, cell in zip(head[1:], row[1:]):
                    name = label if family is None or find_figure(label) else f"{family}: {label}"
                    out[(run, row[0], name)] = number(cell)
    return out


def figure_key(label: str) -> str:
    """Where a label's value is compared: the registered figure (a pattern figure by its filled-in label)."""
    fig = find_figure(label)
    assert fig is not None, f"{label!r} names no registered figure"
    text = label.partition(": ")[2] if ": " in label and fig.family else label
    return f"{fig.family}/{fig.name if '{' not in fig.name else text.removesuffix(' %')}"


# ---- the walk ------------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_every_view_names_registered_figures_each_with_one_value(runs, capsys) -> None:
    store, names = runs
    views: dict[str, Shown] = {}
    for run in names:
        df = scored_answers(store, run)
        for view, shown in (("score", score_view(store, run)), ("results", results_view(df)),
                            ("stress", stress_view(df)), ("report", report_view(store, run))):
            views.setdefault(view, {}).update(shown)
        for label in cli_names(store, run, capsys):
            assert label in {"model", "95% CI"} or find_figure(label), f"probe-ui score shows {label!r}"

    unregistered = sorted({f"{view}: {label}" for view, shown in views.items() for (_, _, label) in shown
                           if label not in KEYS and find_figure(label) is None})
    assert not unregistered, "labels that name no registered figure:\n" + "\n".join(unregistered)

    values: dict[tuple[str, str, str], dict[str, float | None]] = defaultdict(dict)
    for view, shown in views.items():
        for (run, model, label), value in shown.items():
            if label not in KEYS:
                values[(run, model, figure_key(label))][view] = value
    differ = []
    for (run, model, key), by_view in sorted(values.items()):
        known = {v: x for v, x in by_view.items() if x is not None and not math.isnan(x)}
        if len(known) > 1 and max(known.values()) - min(known.values()) > 0.06:  # views round to 0.1
            differ.append(f"{run} · {model} · {key}: {known}")
    assert not differ, "one name, several values:\n" + "\n".join(differ)

    # the two flip rates are two figures, and both are shown (the report shows them side by side)
    shown_keys = {key for (_, _, key) in values}
    assert {"groups/answer flip rate", "/correctness flip rate"} <= shown_keys
    both = [k for k in values if k[2] in ("groups/answer flip rate", "/correctness flip rate")]
    assert {views_ for k in both for views_ in values[k]} >= {"results", "stress", "report"}
    several = sum(len(v) > 1 for v in values.values())
    assert several >= 30, f"only {several} figures appear in more than one view: is the walk reading the views?"


def test_a_figure_name_is_registered_once_with_one_meaning() -> None:
    from probe_ui.metrics.registry import MetricError, figure

    assert figure("accuracy", FIGURES["accuracy"].meaning) == "accuracy"  # the same again is harmless
    assert FIGURES["accuracy"].explain is not None  # and keeps its full definition (the glossary)
    with pytest.raises(MetricError, match="already registered with another meaning"):
        figure("accuracy", "accuracy with adversarial pairs")
    assert find_figure("probmed: accuracy") is None  # a family cannot borrow the run's accuracy for its own figure
    assert find_figure("probmed: accuracy with adversarial pairs").family == "probmed"
    assert find_figure("robustness_curves: AUC blur").name == "AUC {perturbation}"
    assert find_figure("correctness flip rate %").name == "correctness flip rate"
    for f in FIGURES.values():
        assert len(f.meaning.split()) >= 4, f"{f.name}: say what it counts, in words"


def test_the_flip_rates_of_the_issue_are_two_figures(tmp_path: Path) -> None:
    """The issue's case: one item, its original and three variants, two of which keep the correct answer and one
    of which moves it. The answer flip rate compares chosen answers over the two answer-keeping pairs (1 of 2:
    50 %); the correctness flip rate compares right/wrong over all three pairs (1 of 3: 33.3 %)."""
    rows = []
    for cond, answer_label, parsed in (("original", "A", "A"), ("rotate-90", "A", "A"), ("shuffle", "A", "B"),
                                       ("upside-down", "B", "B")):
        rows.append({"run": "r", "response_id": len(rows) + 1, "variant_id": f"v-{cond}", "item_id": "i1",
                     "group_id": "g1", "item_group": None, "condition": cond, "model": "m", "prompt": "mc",
                     "sample": 0, "kind": "choice", "options": ["x", "y"], "answer": "xy"[answer_label == "B"],
                     "answer_label": answer_label, "n_labels": 2, "parsed": parsed, "invalid": False,
                     "refusal": False, "correct": parsed == answer_label, "error": None, "attributes": {},
                     "provenance": [], "category": [], "image_ids": [], "latency_s": 0.1})
    df = pd.DataFrame(rows)
    s = stress.summary(df).set_index("model")
    assert s.loc["m", "correctness_flip_rate"] == pytest.approx(100 / 3)
    assert s.loc["m", "groups: answer flip rate"] == pytest.approx(50.0)
    people = stress.summary_for_people(stress.summary(df))
    assert {"correctness flip rate %", "groups: answer flip rate"} <= set(people.columns)
    assert not any(c.strip(" %") == "flip rate" for c in people.columns)
