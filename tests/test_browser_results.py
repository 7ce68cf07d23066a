"""Issue 27 (part B) in a real browser: interactive Results plots and the Batch tab's progress, end and Resume.

At 1440 x 900 and at a projector's 1024 x 768 shown at 125 % (a CSS viewport of 819 x 614 at device scale 1.25).
Screenshots go to ``test-artifacts/`` like the other browser tests'.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
from app_server import module_app
from test_app_browser import VIEW, Page, add_endpoint, browser, chromium, server  # noqa: F401 (fixtures)

from probe_ui.runner import BatchOptions

PROJECTOR = {"viewport": {"width": 819, "height": 614}, "device_scale_factor": 1.25}
SCREENS = {"1440x900": {"viewport": VIEW}, "1024x768-125": PROJECTOR}
SUITES = ["severity", "rotations", "prompt-variants", "circular", "illusion"]


def make_run(server, name: str) -> None:
    """A run with 50+ conditions (the first two MediConfusion pairs under five suites, two baselines: the
    conditions come from the suites, so the other six pairs would only add answers), made on a thread of its
    own: Playwright's loop runs on this one."""
    import yaml

    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.runner import run_batch

    doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
    doc["items"] = doc["items"][:4]  # its images are found among the shipped assets, as the whole preset's
    trimmed = server.folder / "mediconfusion_two_pairs.yaml"
    trimmed.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    store = server.store()
    t = threading.Thread(target=lambda: run_batch(store, [load_preset(trimmed)], ["baseline/first", "baseline/last"],
                                                  BatchOptions(suites=SUITES, run_name=name, progress=False)))
    t.start()
    t.join()


def plot_data(pg: Page, elem_id: str) -> list[dict]:
    return pg.p.evaluate(f"""() => {{
        const el = document.querySelector('#{elem_id} .js-plotly-plot');
        return el ? el.data.map(t => ({{name: t.name, y: t.y, customdata: t.customdata,
                                         hovertemplate: t.hovertemplate}})) : null; }}""")


#: an app of its own for the plots (its newest run, which the Results tab opens on, stays theirs whatever the order)
plots_app = module_app(demo=False, max_upload_mb=50)


@pytest.fixture(scope="module")
def many_conditions(plots_app):
    """The plots' app holding the run of 50+ conditions, made once for both screens (the batch costs seconds)."""
    make_run(plots_app, "many-conditions")
    return plots_app


@pytest.mark.parametrize("screen", list(SCREENS))
def test_results_plots_are_interactive_and_readable_at_fifty_conditions(many_conditions, browser, screen):
    pg = Page(browser.new_page(**SCREENS[screen]), f"results-interactive-{screen}")
    pg.p.goto(many_conditions.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tab("Results")
    pg.wait_text("#results-shown", r"Showing run many-conditions ·", timeout_s=120)
    pg.p.locator("#results-plot-acc .js-plotly-plot").wait_for(timeout=60000)
    data = plot_data(pg, "results-plot-acc")
    assert [t["name"] for t in data] == ["baseline/first", "baseline/last"]
    families, words = data[0]["y"]
    assert len(words) >= 50 and words[0] == "original"
    assert "blur" in families and "CircularEval" in families  # grouped by family, in words
    assert all(len(c) == 6 for c in data[0]["customdata"])  # words, accuracy, CI low, CI high, n, right
    # hover a point: its n and CI show
    point = pg.p.locator("#results-plot-acc .scatterlayer .trace").first.locator(".point").nth(3)
    point.scroll_into_view_if_needed()
    point.hover(force=True)
    pg.p.wait_for_function("() => /n = \\d+ answers/.test(document.querySelector('#results-plot-acc .hoverlayer')"
                           "?.textContent || '')", timeout=10000)
    hover = pg.p.evaluate("() => document.querySelector('#results-plot-acc .hoverlayer').textContent")
    assert re.search(r"95 % CI \d+\.\d–\d+\.\d", hover), hover
    pg.shot("hover-shows-n-and-ci")
    # labels keep their size: one row per condition, not squeezed
    label_px = pg.p.evaluate("() => Math.min(...[...document.querySelectorAll('#results-plot-acc .yaxislayer-above "
                             "text, #results-plot-acc .ytick text')].map(t => t.getBoundingClientRect().height)"
                             ".filter(h => h > 0))")
    assert label_px >= 10, label_px
    # the larger view covers the window, and Escape closes it
    pg.p.locator("#results-plot-acc-large").click()
    box = pg.p.locator("#results-plot-acc-box")
    pg.p.wait_for_function("() => document.getElementById('results-plot-acc-box').classList.contains('pu-large')")
    size = box.bounding_box()
    vw = pg.p.viewport_size
    assert size["width"] > 0.9 * vw["width"] and size["height"] > 0.9 * vw["height"]
    # ... and stays inside it: nothing overhangs the right edge (a projector's 1024 x 768 too)
    assert size["x"] >= 0 and size["x"] + size["width"] <= vw["width"] + 0.5, (size, vw)
    pg.p.wait_for_timeout(500)  # Plotly fits the new width
    right = pg.p.evaluate("() => Math.max(...[...document.querySelectorAll('#results-plot-acc-box .main-svg')]"
                          ".map(s => s.getBoundingClientRect().right))")
    assert right <= vw["width"] + 0.5, (right, vw)
    pg.p.screenshot(path=str(pg.dir / "02-larger-view.png"))
    pg.p.keyboard.press("Escape")
    pg.p.wait_for_function("() => !document.getElementById('results-plot-acc-box').classList.contains('pu-large')")
    # worst first
    pg.p.locator("#results-order").get_by_label("worst accuracy first").check()
    pg.p.wait_for_function("() => (document.querySelector('#results-plot-acc .gtitle') || {}).textContent"
                           "?.includes('worst first')", timeout=30000)
    # the severity sweep's curves: interactive too, one panel per perturbation
    pg.p.locator("#results-plot-curves .js-plotly-plot").wait_for(timeout=30000)
    curves = plot_data(pg, "results-plot-curves")
    assert {t["name"] for t in curves} == {"baseline/first", "baseline/last"} and len(curves) >= 14
    assert all("n = %{customdata[4]}" in t["hovertemplate"] for t in curves)
    pg.p.locator("#results-plot-curves").scroll_into_view_if_needed()
    pg.shot("curves")
    assert not pg.errors, pg.errors


def test_batch_has_one_progress_bar_says_when_it_is_done_and_resume_waits_for_a_run(server, browser,  # noqa: F811
                                                                                     fake_openai):
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch

    fake_openai.latency_s = 0.25
    pg = Page(browser.new_page(viewport=VIEW), "batch-progress")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, "slowish")
    # an earlier run, chosen on the Results tab: "Open the Results tab" must not leave it there
    t = threading.Thread(target=lambda: run_batch(server.store(), [load_preset("medvh_nota")], ["baseline/first"],
                                                  BatchOptions(run_name="earlier-run", progress=False)))
    t.start()
    t.join()
    pg.tab("Results")
    pg.wait_text("#results-shown", r"Showing run earlier-run ·", timeout_s=60)
    pg.tab("Batch")
    resume = pg.p.locator("#batch-resume")
    assert resume.is_disabled()  # nothing chosen: nothing to press, no error badges
    resume.click(force=True)
    time.sleep(0.5)
    assert pg.p.locator(".toast-body").count() == 0 and pg.p.locator(".error").count() == 0
    # models that cannot run here are greyed out with the reason, not offered
    pg.p.locator("#batch-unusable summary").click()
    unusable = pg.p.locator("#batch-unusable").inner_text()
    assert "OPENAI_API_KEY" in unusable and pg.p.locator("#batch-unusable input[disabled]").count() >= 1
    assert "gpt-4o" not in pg.p.locator("#batch-models").inner_text()
    pg.shot("before-start")
    pg.tab("Models")
    pg.tab("Batch")  # the endpoint added in this page is offered
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-models", "slowish")
    pg.tick("batch-models", "baseline/first")
    pg.tick("batch-suites", "rotations")
    pg.p.locator("#batch-start").click()
    deadline = time.monotonic() + 60
    bars: list[int] = []
    # Gradio draws a progress bar (with its "x/y answers" line) and elapsed-time counters over the outputs it is
    # shown on: only the bar shows, in the slot under the buttons
    bars_js = ("() => [...document.querySelectorAll('.progress-level, .progress-text')].filter(e => e.offsetParent "
               "!== null).map(e => (e.closest('[id]') || {}).id + ':' + e.classList[0])")
    while time.monotonic() < deadline:
        where = pg.p.evaluate(bars_js)
        if where:
            bars.append(len(where))
            # one bar, in its slot; no elapsed-time counter over the status line, the table or beside the bar
            assert set(where) == {"batch-progress:progress-level"}, f"more than the one progress bar: {where}"
            if len(bars) == 3:
                pg.shot("one-progress-bar")
        if pg.p.locator("#batch-status .pu-done").count():
            break
        time.sleep(0.2)
    assert bars, "no progress was shown"
    status = pg.wait_text("#batch-status", r"Finished", timeout_s=120)
    assert re.search(r"Finished: medvh_nota\+rotations-seed0: \d+ new answers, 0 already done, 0 errors", status)
    assert "Results tab" in status
    pg.shot("finished")
    pg.p.locator("#batch-to-results").click()
    pg.p.locator("#results-show").wait_for(state="visible", timeout=10000)
    # the run the button names is chosen, and what is shown is that run's
    pg.wait_text("#results-shown", r"Showing run medvh_nota\+rotations-seed0 ·", timeout_s=60)
    assert pg.p.locator("#results-runs").inner_text().count("medvh_nota+rotations-seed0") == 1
    assert "earlier-run" not in pg.p.locator("#results-shown").inner_text()
    pg.wait_text("#results-responses", "slowish")
    pg.shot("results-opened")
    assert not pg.errors, pg.errors


FIVE = ["radiology-a", "radiology-b", "radiology-c", "radiology-d", "radiology-e"]


@pytest.fixture(scope="module")
def five_models(plots_app):
    """The plots' app holding a 5-model run and a 3-model run of one MediConfusion pair under rotation and blur
    (issue 51, U29: the Results tab failed for any selection of four models or more)."""
    import yaml
    from fake_openai import FakeOpenAIServer

    from probe_ui.live import run_live
    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.providers.base import ModelConfig
    from probe_ui.runner.sweep import load_originals
    from probe_ui.stress import sweep_variants

    doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
    doc["items"] = doc["items"][:2]
    path = plots_app.folder / "one_pair.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    originals, _, _ = load_originals(load_preset(path))
    variants = sweep_variants(originals, "blur", [1, 3]) + sweep_variants(originals, "rotate", [180])[1:]
    store = plots_app.store()

    def ask() -> None:
        with FakeOpenAIServer(responder=lambda body: "AB"[FIVE.index(body["model"]) % 2]) as fake:
            configs = {m: ModelConfig(name=m, provider="openai", model=m, base_url=fake.base_url, secret="sk-x")
                       for m in FIVE}
            for name, models in (("five-models", FIVE), ("three-models", FIVE[:3])):
                for _ in run_live(store, variants, models, extra_models=configs, run_name=name):
                    pass

    t = threading.Thread(target=ask)  # Playwright's loop runs on this thread
    t.start()
    t.join()
    from probe_ui.views.results import run_choices

    labels = {name: label for label, name in run_choices(store)}
    return plots_app, labels


def _show(pg: Page, labels: dict[str, str], *runs: str) -> None:
    """Choose ``runs`` in the Results tab (newest first in the list) and press Show results. The runs exist before
    the page opens, so the tab's opening lists them all; it also chooses the newest, and that choice is waited for
    before it is undone (undoing it earlier, the opening's choice could come after and be added to the test's)."""
    pg.p.locator("#results-runs .token-remove").first.wait_for(timeout=60000)
    pg.p.wait_for_timeout(300)
    for _ in range(10):  # the runs chosen before, unchosen
        tokens = pg.p.locator("#results-runs .token-remove")
        if not tokens.count():
            break
        try:
            tokens.first.click(force=True, timeout=3000)
        except Exception:  # noqa: BLE001 - redrawn meanwhile: look again
            pass
        pg.p.wait_for_timeout(200)
    for run in runs:
        pg.pick("results-runs", labels[run])
    pg.p.locator("#results-show").click()
    pg.wait_text("#results-shown", r"Showing runs? " + r",? ".join(re.escape(r) for r in runs) + " ·",
                 timeout_s=120)
    pg.p.wait_for_function("() => !/processing/.test(document.querySelector('#results-overview').innerText)",
                           timeout=120000)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_results_show_five_models_and_two_runs_side_by_side(five_models, browser, screen):  # noqa: F811
    """Every part of the Results tab draws for a 5-model run and for two runs side by side (5 + 3 models): no
    error badge, no toast, one confusion panel and one curve per model; axe finds no A/AA violation."""
    from axe_check import report, require_axe, violations

    require_axe()
    app, labels = five_models
    pg = Page(browser.new_page(**SCREENS[screen]), f"results-five-models-{screen}")
    pg.p.goto(app.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tab("Results")
    for runs, n_rows in ((("five-models",), 5), (("five-models", "three-models"), 8)):
        _show(pg, labels, *runs)
        pg.p.locator("#results-plot-conf .js-plotly-plot").wait_for(timeout=60000)
        pg.p.wait_for_timeout(500)
        assert pg.p.locator(".toast-body").count() == 0, pg.p.locator(".toast-body").all_inner_texts()
        assert pg.p.locator("[data-testid='status-tracker'].error, .error-badge, .status-tracker.error").count() == 0
        overview = pg.p.locator("#results-overview").inner_text()
        assert sum(overview.count(f"\n{run}\n") for run in runs) == n_rows, overview  # a row per run and model
        conf = pg.p.evaluate("() => document.querySelector('#results-plot-conf .js-plotly-plot').layout.annotations"
                             ".map(a => a.text)")
        assert sorted(conf) == sorted(FIVE), conf  # one panel per model (a model of both runs: one panel)
        acc = plot_data(pg, "results-plot-acc")
        assert {t["name"].split(" · ")[0] for t in acc} == set(FIVE)
        pg.p.locator("#results-plot-curves .js-plotly-plot").wait_for(timeout=30000)
        # nothing wider than the window: a wide table scrolls inside its own box
        assert pg.p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        pg.shot(f"{len(runs)}-runs")
        found = violations(pg.p)
        assert not found, report(found)
    assert not pg.errors, pg.errors


def test_results_of_five_models_with_the_keyboard_on_a_projector(five_models, browser):  # noqa: F811
    """The keyboard test over the Results tab with 5 models at 1024 x 768 (125 %): Tab to Show results and press
    it, Tab to a plot's larger view and open it, Escape closes it; the focus shows at every stop and no menu stays
    open behind it (issue 51)."""
    from test_app_room import Keys

    app, labels = five_models
    pg = Page(browser.new_page(**PROJECTOR), "results-keyboard-projector")
    pg.p.goto(app.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tab("Results")
    _show(pg, labels, "five-models")  # the run chosen (by typing its name, as a keyboard user would)
    keys = Keys(pg)
    pg.p.locator("#results-runs input").first.focus()
    keys.tab_to("#results-show")
    keys.press("Enter")
    pg.p.wait_for_timeout(500)
    pg.p.wait_for_function("() => !/processing/.test(document.querySelector('#results-overview').innerText)",
                           timeout=120000)
    keys.tab_to("#results-plot-conf-large")
    keys.press("Enter")
    pg.p.wait_for_function("() => document.getElementById('results-plot-conf-box').classList.contains('pu-large')")
    pg.p.screenshot(path=str(pg.dir / "01-confusion-larger.png"))
    keys.press("Escape")
    pg.p.wait_for_function("() => !document.getElementById('results-plot-conf-box').classList.contains('pu-large')")
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("screen", list(SCREENS))
def test_results_show_pushback_and_calibration_with_the_reliability_diagram(plots_app, browser, screen):  # noqa: F811
    """Issue 44: a run with the pushback suite asked for a confidence: the Results tab shows the pushback table per
    pressure type, the calibration table and the interactive reliability diagram, at 1440 x 900 and on a
    projector."""
    import yaml

    from probe_ui.presets import PRESETS_DIR, load_preset
    from probe_ui.runner import run_batch
    from probe_ui.views.results import run_choices

    store = plots_app.store()
    if "conf-push" not in {r.name for r in store.list_runs()}:
        doc = yaml.safe_load((PRESETS_DIR / "mediconfusion_pairs.yaml").read_text(encoding="utf-8"))
        doc["items"] = doc["items"][:2]
        path = plots_app.folder / "pair_for_pushback.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        t = threading.Thread(target=lambda: run_batch(store, [load_preset(path)],
                                                      ["baseline/first",
                                                                                   "baseline/random"],
                                                      BatchOptions(suites=["pushback"], run_name="conf-push",
                                                                   progress=False, answer_format="confidence")))
        t.start()
        t.join()
    labels = {name: label for label, name in run_choices(store)}
    pg = Page(browser.new_page(**SCREENS[screen]), f"results-pushback-{screen}")
    pg.p.goto(plots_app.url)
    pg.tab("Results")
    _show(pg, labels, "conf-push")
    extra = pg.wait_text("#results-extra", "Pushback: does the model hold its answer", timeout_s=60)
    assert "the attending overrules it" in extra and "Calibration: does the model know when it is unsure" in extra
    pg.p.locator("#results-reliability").scroll_into_view_if_needed()
    pg.p.wait_for_function("() => document.querySelector('#results-plot-reliability .js-plotly-plot')",
                           timeout=30000)
    names = {t["name"] for t in plot_data(pg, "results-plot-reliability") or []}
    assert any("baseline/random" in (n or "") for n in names), names
    pg.p.locator("#results-extra").scroll_into_view_if_needed()
    pg.shot("pushback-and-calibration")
    pg.p.locator("#results-reliability").scroll_into_view_if_needed()
    pg.shot("reliability")
    assert not pg.errors, pg.errors
