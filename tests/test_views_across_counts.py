"""Every figure and table of the Results and Stress tabs and of the report, drawn for 1 to 12 models and for 1 to 4
runs side by side (issue 51, U29: the Results tab failed for any selection of four models or more, and no test drew
it with more than three).

The runs are real batches: twelve OpenAI-compatible models on the loopback server, each answering by its own rule,
over a MediConfusion pair swept over blur and rotation. A figure counts as drawn when
Plotly accepts it with validation on (what the page's Plotly does with a layout it cannot use) and Gradio's plot
component turns it into its page value.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import gradio as gr
import plotly.graph_objects as go
import pytest
import yaml
from fake_openai import FakeOpenAIServer

from probe_ui.live import run_live
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.providers.base import ModelConfig
from probe_ui.runner.sweep import load_originals
from probe_ui.store import Store
from probe_ui.stress import sweep_variants
from probe_ui.views import plots, stress
from probe_ui.views.report import build_report
from probe_ui.views.results_page import results_view

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

MODELS = [f"reader-{k:02d}" for k in range(1, 13)]
COUNTS = list(range(1, 13))


def _answer(body: dict) -> str:
    """Model k answers by its own rule: the first option, the last, or by the question's length, so that the
    models' figures differ."""
    k = int(re.sub(r"\D", "", body["model"]))
    return ["A", "B", "C"][k % 3] if k % 4 else "I cannot tell from this image."


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, list[str]]:
    """A store with one run per model count (the first n of the twelve models; the bigger runs' answers come from
    the request cache, so each model is asked once) and three more runs of four models, to put side by side. Each
    run asks one MediConfusion pair, its originals swept over blur (1, 3, 5) and rotation (90, 180 degrees)."""
    folder = tmp_path_factory.mktemp("counts")
    doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
    doc["items"] = doc["items"][:2]  # one pair; its images are found among the shipped assets
    preset = folder / "one_pair.yaml"
    preset.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    originals, _, _ = load_originals(load_preset(preset))
    variants = sweep_variants(originals, "blur", [1, 3, 5])
    variants += [v for v in sweep_variants(originals, "rotate", [90, 180]) if v.condition != "original"]
    store = Store(folder / "counts.db")
    asked = [(f"models-{n:02d}", MODELS[:n], 0) for n in COUNTS]
    asked += [(f"four-{k}", MODELS[4 * k:4 * k + 4], k + 1) for k in range(3)]
    with FakeOpenAIServer(responder=_answer) as server:
        configs = {m: ModelConfig(name=m, provider="openai", model=m, base_url=server.base_url, secret="sk-counts")
                   for m in MODELS}
        for name, models, seed in asked:
            for state in run_live(store, variants, models, extra_models=configs, run_name=name, seed=seed):
                pass
            assert state.finished and all(c.status == "answered" for c in state.cards), name
    return store, [name for name, _, _ in asked]


def drawn(fig: go.Figure | None) -> None:
    """``fig`` as the page gets it: Plotly validates every property (the ValueError U29 was), and Gradio's plot
    component makes its value."""
    if fig is None:
        return
    go.Figure(fig.to_dict())  # validation on: a domain outside [0, 1], an unknown property, ... raise here
    assert gr.Plot().postprocess(fig) is not None


class _Cells(HTMLParser):
    """Counts an HTML table's header and body cells (a table that lost a column has fewer)."""

    def __init__(self) -> None:
        super().__init__()
        self.th = self.td = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.th += tag == "th"
        self.td += tag == "td"


@pytest.mark.parametrize("n", COUNTS)
def test_the_results_tab_draws_every_figure_and_table_for_n_models(runs, n) -> None:
    store, names = runs
    view = results_view(store, [names[n - 1]])
    for fig in (view.plot_acc, view.plot_cat, view.plot_conf, view.plot_curves):
        drawn(fig)
    assert view.plot_curves is not None  # the run holds a severity sweep
    assert list(view.overview["model"]) == MODELS[:n]
    assert sorted({t.name for t in view.plot_acc.data}) == MODELS[:n]
    # one confusion panel per model that answered, each titled with its model
    titles = [a["text"] for a in view.plot_conf.layout.annotations]
    assert titles == MODELS[:n]
    assert set(view.by_condition["model"]) == set(MODELS[:n])
    for order in plots.SORTS:  # the rows of the per-perturbation plot in every order the page offers
        drawn(plots.accuracy_by_condition(view.by_condition, order))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_the_results_tab_draws_k_runs_side_by_side(runs, k) -> None:
    """Runs of four models side by side: the twelve-model run and 1-3 runs of four, up to 4 + 12 model columns."""
    store, names = runs
    chosen = [names[11], *names[12:12 + k - 1]]
    view = results_view(store, chosen)
    for fig in (view.plot_acc, view.plot_cat, view.plot_conf, view.plot_curves):
        drawn(fig)
    assert set(view.overview["run"]) == set(chosen)
    assert len(view.overview) == 12 + 4 * (k - 1)
    # the breaking points of several runs say which run each row is (two rows "reader-01 · blur" read the same)
    breaking = view.extra[view.extra.index("AUC and breaking points"):]
    if k > 1:
        assert "<th>run</th>" in breaking and all(f">{name}</th>" in breaking for name in chosen)


@pytest.mark.parametrize("n", COUNTS)
def test_the_stress_tab_draws_its_table_summary_and_curve_for_n_models(runs, n) -> None:
    store, names = runs
    view = stress.stress_view(store, names[n - 1], sweep="blur")
    drawn(view.curve)
    assert sorted({t.name for t in view.curve.data if t.showlegend is not False} - {None}) == MODELS[:n]
    assert list(view.summary["model"]) == MODELS[:n]
    cells = _Cells()
    cells.feed(view.table_html)
    assert cells.th >= n + 1 and cells.td > 0
    for m in MODELS[:n]:
        assert f"data-model='{m}'" in view.table_html or f'data-model="{m}"' in view.table_html


@pytest.mark.parametrize("n", COUNTS)
def test_the_report_names_every_model_for_n_models(runs, n) -> None:
    store, names = runs
    html = build_report(store, names[n - 1])
    overview = html[html.index('id="overview"'):html.index('id="papers"')]
    for m in MODELS[:n]:
        assert m in overview
    assert MODELS[n] not in html if n < 12 else True
