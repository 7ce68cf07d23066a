"""Issue 26: a figure's meaning is next to the figure in the Results tab, as a clinician looks for it.

A scored MediConfusion run of two baselines, at 1440 x 900 and at a projector's 1024 x 768 shown at 125 %. The
explanations are the metrics' own ``explain=`` text (the same as docs/metrics.md and ``probe-ui metrics --explain``).
Screenshots go to ``test-artifacts/results-glossary-*``.
"""

from __future__ import annotations

import threading

import pytest
from app_server import module_app
from test_app_browser import VIEW, Page, browser, chromium  # noqa: F401 (fixtures)

from probe_ui.runner import BatchOptions

SCREENS = {"1440x900": {"viewport": VIEW},
           "1024x768-125": {"viewport": {"width": 819, "height": 614}, "device_scale_factor": 1.25}}


def make_run(server, name: str) -> None:
    """Two baselines over the MediConfusion pairs, on a thread of its own (Playwright's loop runs on this one)."""
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch

    store = server.store()
    t = threading.Thread(target=lambda: run_batch(store, [load_preset("mediconfusion_pairs")],
                                                  ["baseline/first", "baseline/random"],
                                                  BatchOptions(run_name=name, progress=False)))
    t.start()
    t.join()


def broken_words(pg: Page, selector: str) -> list[str]:
    """The words of the visible cells ``selector`` finds that are drawn on more than one line ("unread / able")."""
    return pg.p.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
        .flatMap(cell => { const out = []; const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) { const re = /\\S+/g; let m;
            while ((m = re.exec(n.textContent))) { const r = document.createRange(); r.setStart(n, m.index);
              r.setEnd(n, m.index + m[0].length); if (r.getClientRects().length > 1) out.push(m[0]); } }
          return out; })""", selector)


server = module_app(demo=False, max_upload_mb=50)


@pytest.fixture(scope="module")
def pairs(server):
    """The module's app holding the scored run, made once for both screens (a run's batch costs seconds)."""
    make_run(server, "pairs")
    return server


@pytest.mark.parametrize("screen", list(SCREENS))
def test_each_figure_says_what_it_means_beside_it(pairs, browser, screen):  # noqa: F811
    from probe_ui.metrics.registry import explain_figures

    pg = Page(browser.new_page(**SCREENS[screen]), f"results-glossary-{screen}")
    pg.p.goto(pairs.url)
    pg.p.locator("#probe-run").wait_for()
    # on a busy machine the page's first load keeps a loading veil over the tabs for a while
    pg.p.get_by_role("tab", name="Results", exact=True).click(timeout=180000)
    pg.wait_text("#results-shown", r"Showing run pairs ·", timeout_s=120)
    pg.p.locator("#results-families .pu-family").first.wait_for(timeout=60000)
    pg.shot("shown")
    # the overview's figures: their meanings right under the table ...
    pg.p.locator("#results-overview").scroll_into_view_if_needed()
    pg.shot("overview")
    assert not broken_words(pg, "#results-overview thead th"), "a column heading is broken inside a word"
    # ... open beside the table without a click, one line per column, each with its full definition folded
    glossary = pg.p.locator("#results-glossary")
    glossary.wait_for(state="visible", timeout=10000)
    for figure in ("accuracy", "random guess", "unreadable", "refused", "failed calls"):
        assert f"{figure}:" in glossary.inner_text(), figure
    pg.shot("overview-meanings")
    # a paper's figure: its one-line meaning under its table, its full definition one click away
    family = pg.p.locator("#results-families .pu-family[data-family='mediconfusion']")
    family.scroll_into_view_if_needed()
    pg.shot("family")
    more = family.locator("details.pu-explain", has_text="set accuracy").first
    more.locator("summary").click()
    text = more.inner_text()
    definition = explain_figures("set accuracy")[0].explain
    assert definition is not None
    for heading, body in definition.parts():
        assert heading in text and body[:60] in text, heading
    more.scroll_into_view_if_needed()
    pg.shot("set-accuracy-explained")
    assert not pg.errors, pg.errors
