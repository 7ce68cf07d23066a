"""Issue 51's small items: tables headed before anything is shown (U41), Resume offered after a Cancel (U43), the
Stress tab's count of calls following the models (U38), angle-bracket words shown as written (U39), a saved rating
in the answer's detail (U37), and every tab opening at the top of the page (U33).

The library and wiring tests run without a browser; the two browser tests (Debian's chromium through Playwright, at
1440 x 900) save their screenshots under ``test-artifacts/`` like the other browser tests. The viewer's greyed-out
judge (U44) is checked in ``test_app_browser.py``'s viewer test, the report's width (U42) in ``test_report.py``.
"""

from __future__ import annotations

import re
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import require_chromium
from test_app_browser import Page, add_endpoint, browser, open_page, server  # noqa: F401 (fixtures)

from probe_ui.runner import BatchOptions


@pytest.fixture
def chromium() -> str:
    """Only the browser tests need chromium (test_app_browser's own fixture is autouse: every test of its file)."""
    return require_chromium()


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown_text(markdown: str) -> str:
    """What a reader sees of ``markdown``: rendered as CommonMark with HTML allowed (as Gradio's Markdown and a
    documentation site do), then the text of the HTML (a tag's name is no text)."""
    from markdown_it import MarkdownIt

    parser = _Text()
    parser.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))
    return "".join(parser.parts)


# ---- without a browser ----------------------------------------------------------------------------------------------

def test_every_table_of_the_page_is_headed_before_anything_is_shown(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """U41: a table without a value is headed "1 | 2 | 3" by Gradio; every table of the page has its own headings
    (those the library gives it once it has rows) from the start."""
    import gradio as gr

    from probe_ui.app.blocks import AppContext, build_app
    from probe_ui.store import Store

    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db)))
    tables = {b.elem_id: b.value for b in app.blocks.values() if isinstance(b, gr.Dataframe)}
    assert {"results-overview", "results-failed", "results-by-condition", "results-responses", "stress-summary",
            "compare-by-condition", "compare-flips", "batch-runs", "models-table"} <= set(tables)
    numbered = {i: v["headers"] for i, v in tables.items() if all(str(h).isdigit() for h in v["headers"])}
    assert not numbered, f"tables headed by numbers: {numbered}"
    from probe_ui.app.results_tab import headed_tables

    empty = headed_tables()
    assert tables["results-overview"]["headers"] == list(empty["overview"].columns)
    assert "why (count × reason)" in tables["results-failed"]["headers"]
    assert "correctness flip rate %" in tables["stress-summary"]["headers"]


def test_a_selection_without_answers_keeps_every_tables_headings(tmp_path: Path) -> None:
    """U41, after a selection: filters that keep no answer give each Results table its headings and no rows, the
    same headings as the tab shows before anything is."""
    from probe_ui.app.results_tab import headed_tables
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.store import Store
    from probe_ui.views.results_page import condition_numbers, results_view

    store = Store(tmp_path / "s.db")
    run_batch(store, [load_preset("medvh_nota")], ["baseline/first"], BatchOptions(run_name="one", progress=False))
    v = results_view(store, ["one"], ratings=["correct"])  # nothing is rated
    empty = headed_tables()
    shown = {"overview": v.overview, "failed": v.failed, "by_condition": condition_numbers(v.by_condition),
             "responses": v.responses}
    for name, df in shown.items():
        assert len(df) == 0 and list(df.columns) == list(empty[name].columns), name


def test_a_batch_left_with_answers_to_do_is_chosen_for_resume(tmp_path: Path) -> None:
    """U43: a cancelled batch's run is the one Resume is offered for, and Resume can be pressed; a complete run is
    not offered (after a new batch the choice stays as it was, after a Resume it is cleared)."""
    from probe_ui.app.batch_tab import resume_choice, resume_updates, unfinished_runs
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.store import Store

    store = Store(tmp_path / "s.db")
    ctx = SimpleNamespace(store=store)
    stop = threading.Event()
    stop.set()  # cancelled before its first answer
    cut = run_batch(store, [load_preset("medvh_nota")], ["baseline/first"],
                    BatchOptions(run_name="cut", progress=False), cancel=stop)
    done = run_batch(store, [load_preset("medvh_nota")], ["baseline/first"],
                     BatchOptions(run_name="done", progress=False))
    assert cut.cancelled and not done.cancelled
    left = unfinished_runs(ctx)
    assert resume_choice(cut, left) == "cut" and resume_choice(done, left) is None
    pick, resume = resume_updates(cut, left)
    assert pick["value"] == "cut" and resume["interactive"] is True
    pick, resume = resume_updates(done, left)
    assert "value" not in pick and "interactive" not in resume
    pick, resume = resume_updates(done, left, resumed=True)
    assert pick["value"] is None and resume["interactive"] is False


def test_the_stress_tab_takes_what_changed_in_the_probe_tabs_models() -> None:
    """U38: a model unticked (or deleted from the typed names) in the Probe tab leaves the Stress tab too; one
    ticked there comes along; what was chosen in the Stress tab itself stays."""
    from probe_ui.app.stress_tab import follow_probe

    ticks, typed, seen = follow_probe([], "", ["a", "b"], "openai/x", None)  # first visit: all come along
    assert (ticks, typed) == (["a", "b"], "openai/x")
    ticks, typed, seen = follow_probe(["a", "b", "c"], "openai/x, openai/y", ["a"], "", seen)  # b, x gone there
    assert (ticks, typed) == (["a", "c"], "openai/y")
    ticks, typed, seen = follow_probe(["c"], "openai/y", ["a"], "", seen)  # a unticked here, unchanged there
    assert (ticks, typed) == (["c"], "openai/y")
    ticks, typed, _ = follow_probe(ticks, typed, ["a", "d"], "openai/z", seen)  # d and z new there
    assert (ticks, typed) == (["c", "d"], "openai/y, openai/z")


def test_angle_bracket_words_show_as_written() -> None:
    """U39: "severity/<perturbation>-<level>" lost its bracketed words wherever it was put into Markdown as it
    was (an HTML tag to the renderer): the Stress tab's suite description and the guide's suite table."""
    from probe_ui.app.stress_tab import _suite_doc
    from probe_ui.cli.listings import perturbations_markdown
    from probe_ui.perturb import describe
    from probe_ui.presets.suites import describe_suites

    words = "severity/<perturbation>-<level>"
    guide = perturbations_markdown(describe(), describe_suites())
    assert words in shown_text(guide)
    assert "(> 0, < 0.5)" in guide  # a "<" that starts no tag is left as it is
    assert words in shown_text(_suite_doc("severity"))


# ---- in the browser -------------------------------------------------------------------------------------------------

def plan(pg: Page, pattern: str) -> str:
    return pg.wait_text("#stress-plan", pattern, timeout_s=30)


def test_stress_counts_the_models_asked_and_a_saved_rating_shows_in_the_detail(server, browser):  # noqa: F811
    """U38: the Stress tab's "Run will ask" counts exactly the models Run would ask, after a model is unticked
    there, typed and deleted there, or unticked in the Probe tab; U39: the severity suite's description shows
    "<perturbation>"; U41: the summary and the Results tables are headed before and after a selection without rows;
    U37: Save in an answer's detail shows the saved rating there."""
    pg = open_page(browser, server, "issue51-stress-rating")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/first")
    pg.tick("probe-models", "baseline/random")
    pg.tab("Stress")
    plan(pg, r"x 2 models = 8 calls")
    heads = pg.p.locator("#stress-summary thead th").all_inner_texts()
    assert "model" in heads[0] and not any(h.strip().isdigit() for h in heads), heads  # U41
    pg.tick("stress-models", "baseline/random")  # unticked here
    plan(pg, r"x 1 models = 4 calls")
    pg.fill("stress-adhoc", "baseline/last")  # typed, then deleted
    plan(pg, r"x 2 models = 8 calls")
    pg.fill("stress-adhoc", "")
    plan(pg, r"x 1 models = 4 calls")
    pg.tick("stress-models", "baseline/random")  # ticked again here
    plan(pg, r"x 2 models = 8 calls")
    pg.tab("Probe")
    pg.tick("probe-models", "baseline/first")  # unticked in the Probe tab: it leaves the Stress tab too
    pg.tab("Stress")
    said = plan(pg, r"x 1 models = 4 calls")
    ticked = pg.p.eval_on_selector_all("#stress-models input:checked", "els => els.map(e => e.parentElement"
                                       ".innerText.trim())")
    assert ticked == ["baseline/random"], (ticked, said)
    pg.pick("stress-suite", "every image degradation, severities 1-5")
    pg.wait_text("#stress-suite-doc", re.escape("severity/<perturbation>-<level>"))  # U39
    pg.shot("stress-plan-and-suite")

    pg.tab("Probe")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    pg.p.locator("#probe-table td.pu-cell").first.click()
    pg.wait_text("#probe-detail-text", r"Rating: unrated")
    pg.p.locator("#probe-rating").get_by_label("incorrect").check()
    pg.p.locator("#probe-rate").click()
    pg.wait_text("#probe-status", r"Saved: answer #\d+ rated incorrect")
    pg.wait_text("#probe-detail-text", r"Rating: incorrect", timeout_s=10)  # U37
    pg.p.locator("#probe-detail-text").scroll_into_view_if_needed()
    pg.shot("rating-saved-in-detail")

    pg.tab("Results")
    pg.wait_text("#results-shown", r"Showing run .*ratings: all", timeout_s=60)
    pg.pick("results-f-ratings", "unsure")  # nothing is rated unsure: every table without rows
    pg.wait_text("#results-shown", r"ratings: unsure", timeout_s=60)
    for table in ("results-overview", "results-failed", "results-by-condition", "results-responses"):
        heads = pg.p.locator(f"#{table} thead th").all_inner_texts()
        assert heads and not any(h.strip().isdigit() for h in heads), (table, heads)  # U41
        assert pg.p.locator(f"#{table} tbody tr td").all_inner_texts() in ([], [""] * len(heads)), table
    pg.shot("results-no-rows-headed")
    assert not pg.errors, pg.errors


def test_cancel_leaves_resume_ready_and_the_results_tab_opens_at_the_top(server, browser,  # noqa: F811
                                                                         fake_openai):
    """U43: after Cancel, Resume is ready for the cancelled run (it stayed greyed out until the run was chosen by
    hand); U33: "Open the Results tab" and a tab button land at the top of the page, not at the scroll position
    of the tab before."""
    fake_openai.latency_s = 1.0
    pg = open_page(browser, server, "issue51-resume-and-top")
    add_endpoint(pg, fake_openai, "slow-u43")
    pg.tab("Results")  # seen once: its page is drawn, and no longer empty while the tab switches
    pg.p.locator("#results-show").wait_for()
    pg.tab("Batch")
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-suites", "rotations")
    pg.tick("batch-models", "slow-u43")
    pg.fill("batch-run-name", "u43-run")
    pg.p.locator("#batch-start").click()
    deadline = time.monotonic() + 60
    while len(fake_openai.chat_requests) < 4:
        assert time.monotonic() < deadline, "the model was never asked"
        time.sleep(0.1)
    pg.p.locator("#batch-cancel").click()
    pg.wait_text("#batch-status", r"Cancelled.*answers left", timeout_s=60)
    pg.p.wait_for_function("() => !document.querySelector('#batch-resume').disabled", timeout=10000)
    assert pg.p.locator("#batch-resume-pick input").input_value() == "u43-run"
    pg.shot("cancelled-resume-ready")
    fake_openai.latency_s = 0
    pg.p.locator("#batch-resume").click()
    pg.wait_text("#batch-status", r"Finished: u43-run", timeout_s=120)
    pg.p.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    button = pg.p.locator("#batch-to-results")
    button.scroll_into_view_if_needed()
    assert pg.p.evaluate("() => window.scrollY") > 100  # the Batch tab is scrolled down to its button
    button.click()
    pg.wait_text("#results-shown", r"Showing run u43-run ·", timeout_s=60)
    pg.p.wait_for_function("() => document.body.scrollHeight > window.innerHeight + 1000", timeout=30000)
    assert pg.p.evaluate("() => window.scrollY") == 0  # U33
    pg.p.screenshot(path=str(pg.dir / "results-from-the-top.png"))
    pg.p.evaluate("() => window.scrollTo(0, 1500)")
    pg.tab("Batch")
    pg.tab("Results")
    pg.p.wait_for_timeout(500)
    assert pg.p.evaluate("() => window.scrollY") == 0
    assert not pg.errors, pg.errors
