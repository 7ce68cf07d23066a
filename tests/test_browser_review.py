"""Issue 46 in a real browser: the Results tab's "To review" list settles two unsure readings in one click each,
and the figures and counts above change (accuracy with the parser 'settled', the readings column).

At 1440 x 900 and at a projector's 1024 x 768 shown at 125 %; screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest
from app_server import module_app
from helpers import store_replies, write_png, write_preset
from test_app_browser import Page, browser, chromium  # noqa: F401 (fixtures)
from test_browser_results import SCREENS

QUESTIONS = ["Is there a pleural effusion?", "Is there a pneumothorax?", "Is the heart enlarged?",
             "Is there a fracture?"]
REPLIES = ["No.", "Yes, there is a pneumothorax.", "Probably yes, though it is hard to say.",
           "No fracture. Actually, wait: yes, a subtle fracture line."]

review_app = module_app(demo=False, max_upload_mb=50)


def make_run(server, name: str) -> None:
    """A run of four yes/no questions whose replies the reader reads sure (two) and unsure (two)."""
    items = []
    for i, q in enumerate(QUESTIONS):
        write_png(server.folder / f"{name}-{i}.png", seed=i)
        items.append({"id": f"q{i}", "image": f"{name}-{i}.png", "question": q, "kind": "yesno", "answer": "yes"})
    preset = write_preset(server.folder / f"{name}.yaml", items)
    store_replies(server.store(), preset, {"model/a": REPLIES}, run=name)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_settling_two_unsure_readings_changes_the_figures_and_counts(review_app, browser, screen):
    run = f"review-{screen}"
    make_run(review_app, run)
    pg = Page(browser.new_page(**SCREENS[screen]), f"results-review-{screen}")
    pg.p.goto(review_app.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tab("Results")
    # the tab opens on the newest run, this one: chosen (the tab's opening ran), then shown
    pg.wait_text("#results-runs", run, timeout_s=60)
    pg.wait_text("#results-shown", rf"Showing run {run}", timeout_s=120)
    overview = pg.wait_text("#results-overview", r"2 sure, 2 unsure, 0 settled")
    assert "75" in overview  # the reader's guesses of yes count as right
    pg.wait_text("#review-card", r"Reading 1 of 2 to review")
    card = pg.p.locator("#review-card").inner_text()
    assert QUESTIONS[2] in card and REPLIES[2] in card and "The reader's guess: yes" in card and "hedges" in card
    pg.fill("review-name", "Dr Ames")
    pg.p.locator("#results-review").scroll_into_view_if_needed()
    pg.shot("two-to-review")
    pg.tick("review-choice", "no answer")  # one click settles the hedge as no answer
    pg.wait_text("#review-card", r"Reading 1 of 1 to review", timeout_s=90)
    assert REPLIES[3] in pg.p.locator("#review-card").inner_text()
    pg.tick("review-choice", "no")  # and the reversal as no
    pg.wait_text("#review-msg", r"Nothing to review", timeout_s=90)
    overview = pg.wait_text("#results-overview", r"2 sure, 0 unsure, 2 settled", timeout_s=90)
    assert "25" in overview  # the settled readings count: one right answer of four
    pg.p.locator("#results-overview").scroll_into_view_if_needed()
    pg.shot("settled")
    store = review_app.store()
    per = store.settlements_frame(store.get_run(run).id, per_settler=True)
    assert sorted(per["label"]) == ["", "no"] and set(per["settled_by"]) == {"Dr Ames"}
    assert not pg.errors, pg.errors
