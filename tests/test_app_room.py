"""The Probe tab as a room sees it, in a real browser (Debian's chromium, Playwright), at 1440 x 900 and on a
projector (1024 x 768 at 125 % scaling: an 819 x 614 CSS-pixel window drawn at 1.25 device pixels per CSS pixel):
answers in view after Run with the question and the pictures, no table cut off at the right, no word broken in
the middle, a thumbnail in every row, the draft back after a reload, and no WCAG A/AA violation (axe-core).

Screenshots go to ``test-artifacts/room-*`` (or ``$PROBE_UI_ARTIFACTS``).
"""

from __future__ import annotations

import io
import re

import pytest
from app_server import module_app
from axe_check import report, require_axe, violations
from PIL import Image
from test_app_browser import Page, add_endpoint, browser, chromium  # noqa: F401,F811 (fixtures)

#: name → (CSS viewport, device scale factor)
SCREENS = {"desk-1440x900": ({"width": 1440, "height": 900}, 1.0),
           "projector-1024x768-125": ({"width": 819, "height": 614}, 1.25)}

#: every word of a cell, header or row label on one line (a word split over two lines has two boxes)
SPLIT_WORDS_JS = """(root) => {
  const split = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.textContent;
    for (const m of text.matchAll(/[A-Za-z0-9()°]+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
      if (lines.size > 1) split.push(m[0]);
    }
  }
  return split;
}"""

CLIPPED_JS = """() => [...document.querySelectorAll('#probe-table .pu-scroll')]
  .filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => [s.scrollWidth, s.clientWidth])"""


#: one app and one demo app for the module's tests (tests/app_server.py, module_app): each test works in browser
#: contexts of its own and reads only the runs it makes
server = module_app(demo=False, max_upload_mb=50)
demo_server = module_app(demo=True, max_upload_mb=50)


def _open(browser, url: str, screen: str, name: str) -> Page:
    view, scale = SCREENS[screen]
    pg = Page(browser.new_page(viewport=view, device_scale_factor=scale), f"room-{name}-{screen}")
    pg.p.goto(url)
    pg.p.locator("#probe-run").wait_for()
    pg.p.wait_for_function("() => !document.querySelector('.progress-text, .eta-bar')", timeout=60000)
    return pg


def _in_view(pg: Page, selector: str) -> bool:
    box = pg.p.locator(selector).first.bounding_box()
    height = pg.p.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + min(box["height"], 40) <= height


@pytest.mark.parametrize("screen", list(SCREENS))
def test_answers_come_into_view_whole_and_readable(demo_server, browser, fake_openai, screen):
    """Demo, presenter mode on: Run brings the question, the thumbnails and the answers into view; five models
    are shown as two tables, none cut off; no word is broken; every row has its picture; axe finds nothing."""
    require_axe()
    pg = _open(browser, demo_server.url, screen, "answers")
    assert pg.p.evaluate("() => document.body.classList.contains('pu-presenter')")  # on by default in a demo
    names = ["radiology-model-a", "radiology-model-b"]
    add_endpoint(pg, fake_openai, *names)
    for m in ["baseline/last", *names]:
        pg.tick("probe-models", m)
    pg.p.evaluate("() => window.scrollTo(0, 0)")
    pg.shot("first-screen")
    pg.p.locator("#probe-run").click()
    pg.table_done(15, timeout_s=90)
    pg.p.wait_for_timeout(300)
    pg.p.screenshot(path=str(pg.dir / "02-answers-in-view.png"))  # the window as the room sees it
    assert _in_view(pg, "#probe-table .pu-asked"), "the question is not in view after Run"
    assert "Which imaging modality" in pg.p.locator("#probe-table .pu-asked").inner_text()
    assert _in_view(pg, "#probe-table img.pu-thumb"), "no picture in view after Run"
    assert _in_view(pg, "#probe-table td.pu-cell"), "no answer in view after Run"
    # five models: two tables of 3 and 2 columns, each with the rows' pictures; nothing cut off at the right
    assert pg.p.locator("#probe-table table").count() == 2
    assert pg.p.evaluate(CLIPPED_JS) == []
    assert pg.p.evaluate(SPLIT_WORDS_JS, pg.p.locator("#probe-table").element_handle()) == []
    rows = pg.p.locator("#probe-table tbody tr")
    assert rows.count() == 6
    for k in range(rows.count()):
        assert rows.nth(k).locator("img.pu-thumb").count() == 1, f"row {k} has no thumbnail"
    # compact rows: none takes more than a third of the window; a clamped answer keeps its whole text on hover
    heights = pg.p.evaluate("() => [...document.querySelectorAll('#probe-table tbody tr')]"
                            ".map(r => r.getBoundingClientRect().height)")
    assert max(heights) <= pg.p.viewport_size["height"] / 3, heights
    assert pg.p.evaluate("() => [...document.querySelectorAll('#probe-table .pu-ans')].every(a => a.title && "
                         "a.title.replace(/\\s+/g, ' ').trim() === a.textContent.replace(/\\s+/g, ' ').trim())")
    pg.shot("answered-full-page")
    found = violations(pg.p, "#probe-table")
    assert not found, report(found)
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("screen", list(SCREENS))
def test_probe_and_results_tabs_have_no_a_or_aa_violations(demo_server, browser, screen):
    """axe-core over the whole Probe tab after a run, and over the Results tab."""
    require_axe()
    pg = _open(browser, demo_server.url, screen, "axe")
    pg.p.locator("#probe-run").click()
    pg.table_done(6)
    pg.shot("probe")
    found = violations(pg.p)
    assert not found, report(found)
    pg.tab("Results")
    pg.p.wait_for_timeout(1500)
    pg.shot("results")
    found = violations(pg.p)
    assert not found, report(found)


def _square_png(path) -> str:
    """A 1024 x 1024 picture whose top half is light and bottom half dark (so a rotation shows)."""
    im = Image.new("L", (1024, 1024), 30)
    im.paste(220, (0, 0, 1024, 512))
    im.save(path)
    return str(path)


def test_a_rotated_1024_upload_has_a_thumbnail_in_every_row_and_its_detail_shows_it_whole(tmp_path, server, browser):
    pg = _open(browser, server.url, "desk-1440x900", "rotated-upload")
    pg.p.get_by_role("tab", name="Upload").click()
    pg.p.locator("#probe-upload input[type=file]").set_input_files(_square_png(tmp_path / "square.png"))
    pg.wait_text("#probe-image-info", "1024")
    pg.fill("probe-question", "Is the light half at the top?")
    pg.p.locator("#probe-kind label", has_text="yesno").click()
    pg.p.get_by_text("advanced: parameters as JSON").click()
    for angle in (90, 270):
        pg.code("probe-params", f'{{"angle": {angle}}}')
        pg.p.locator("#probe-add-step").click()
        pg.wait_text("#probe-steps-words", f"rotated {angle}°")
    pg.p.locator("#probe-preview").click()  # a preview first: its rows were drawn before anything was stored
    pg.wait_text("#probe-table .pu-progress", "Preview: 3 variants")
    assert pg.p.locator("#probe-table img.pu-thumb").count() == 3
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(3)
    rows = pg.p.locator("#probe-table tbody tr")
    assert [rows.nth(k).locator("img.pu-thumb").count() for k in range(3)] == [1, 1, 1]
    pg.shot("rotated-rows")
    # the detail of the 90° answer: the whole image, its size and hash, a full-size view on demand
    pg.p.locator("#probe-table tr[data-condition*='rotate'] button[data-act='open']").first.click()
    figure = pg.p.locator("#probe-detail-images figure").first
    figure.wait_for(timeout=20000)
    caption = figure.locator("figcaption").inner_text()
    assert re.search(r"1024×1024 px · sha256 [0-9a-f]{12}", caption), caption
    img = figure.locator("img.pu-whole")
    box = img.bounding_box()
    natural = img.evaluate("(i) => [i.naturalWidth, i.naturalHeight]")
    assert natural == [1024, 1024] and abs(box["width"] - box["height"]) < 2 and box["height"] <= 362  # whole
    sent = pg.p.evaluate("() => document.querySelector('#probe-detail-images img.pu-whole').src")
    shown = Image.open(io.BytesIO(__import__("base64").b64decode(sent.split(",", 1)[1])))
    assert shown.getpixel((10, 512)) != shown.getpixel((1013, 512))  # rotated: light and dark side by side
    assert not figure.locator(".pu-zoom").is_visible()
    figure.locator("summary").click()
    assert figure.locator(".pu-zoom img").is_visible()
    pg.shot("detail-whole-image")
    assert not pg.errors, pg.errors


def test_a_draft_comes_back_after_a_reload_and_start_over_empties_it(server, browser):
    pg = _open(browser, server.url, "projector-1024x768-125", "draft")
    pg.ask("CT\nMRI\nUltrasound", "CT", question="Which modality is this, in your view?")
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps-words", "rotated")
    pg.tick("probe-models", "baseline/last")
    pg.p.wait_for_timeout(1500)  # the draft is written as the form changes
    pg.shot("before-reload")
    pg.p.reload()
    pg.p.locator("#probe-run").wait_for()
    pg.wait_text("#probe-draft-msg", "draft was brought back")
    assert pg.p.locator("#probe-question textarea").input_value() == "Which modality is this, in your view?"
    assert pg.p.locator("#probe-options textarea").input_value() == "CT\nMRI\nUltrasound"
    assert "rotated" in pg.p.locator("#probe-steps-words").inner_text()
    assert pg.p.locator("#probe-models input[type=checkbox]:checked").count() == 1
    pg.wait_text("#probe-image-info", "from your draft")
    pg.p.wait_for_function("() => { const i = document.querySelector('#probe-image img');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    pg.shot("after-reload")
    pg.p.locator("#probe-start-over").click()
    pg.wait_text("#probe-draft-msg", "Started over")
    assert pg.p.locator("#probe-question textarea").input_value() == ""
    pg.p.wait_for_timeout(1500)
    pg.p.reload()
    pg.p.locator("#probe-run").wait_for()
    pg.p.wait_for_timeout(2000)
    assert pg.p.locator("#probe-question textarea").input_value() == ""
    pg.shot("after-start-over")
    assert not pg.errors, pg.errors


def test_no_code_names_on_the_probe_page_where_a_label_exists(demo_server, browser):
    """The demo page and its table in words: no registry code name that has a label of other words."""
    from probe_ui import labels

    pg = _open(browser, demo_server.url, "desk-1440x900", "words")
    pg.p.locator("#probe-run").click()
    pg.table_done(6)
    text = ""
    for elem in ("probe-op", "probe-suites"):
        pg.p.locator(f"#{elem} input").first.click()  # the menus open: their entries are on the page too
        pg.p.wait_for_timeout(300)
        pg.shot(f"menu-{elem}")
        text += pg.p.locator("body").inner_text()
        pg.p.keyboard.press("Escape")
    text += pg.p.locator("body").inner_text()
    codes = {**labels.perturbations(), **labels.suites()}
    shown = [code for code, label in codes.items()
             if code.lower() not in label.lower() and re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text)]
    assert shown == [], shown
    assert not re.search(r"\{\}|invalid (True|False)|\(1 items\)", text)
    assert "/" not in pg.p.locator("text=store:").first.inner_text().removeprefix("store:")


def _codes_shown(text: str, codes: dict[str, str]) -> list[str]:
    """The code names in ``text`` whose label is other words (a label that contains its code name shows it); the
    metric "answer flip rate" is a figure's name, not the 'flip' perturbation."""
    text = text.replace("flip rate", "")
    return [code for code, label in codes.items()
            if code.lower() not in label.lower() and re.search(rf"(?<![\w/-]){re.escape(code)}(?![\w/-])", text)]


def test_no_code_names_on_the_results_page_or_an_answers_detail(demo_server, browser):
    """The Results tab of the demo run, its menus and one answer's detail in words: no perturbation, suite, prompt
    template, parser or setting code name that has a label of other words, no condition id, no JSON."""
    from probe_ui import labels
    from probe_ui.views import results

    pg = _open(browser, demo_server.url, "desk-1440x900", "results-words")
    pg.p.locator("#probe-run").click()
    pg.table_done(6)
    run = pg.run_name()
    pg.tab("Results")
    pg.wait_text("#results-shown", rf"Showing run {re.escape(run)}", timeout_s=60)
    text = ""
    for elem in ("results-f-conditions", "results-export-format"):
        pg.p.locator(f"#{elem} input").first.click()
        pg.p.wait_for_timeout(300)
        text += pg.p.locator("body").inner_text()
        pg.p.keyboard.press("Escape")
    pg.p.locator("#results-responses [role='gridcell']").nth(13).click()  # a cell of the second answer
    pg.wait_text("#results-detail", r"Response #\d+", timeout_s=30)
    pg.p.locator("#results-detail").scroll_into_view_if_needed()
    pg.shot("answer-detail")
    text += pg.p.locator("body").inner_text()
    detail = pg.p.locator("#results-detail").inner_text()
    codes = {**labels.perturbations(), **labels.suites(), **labels.templates(), **labels.parsers(), **labels.SETTINGS}
    assert _codes_shown(text, codes) == []
    conditions = set(results.answers(demo_server.store(), [run])["condition"].astype(str)) - {"original"}
    # a condition id is not shown (one that is a code name whose label holds it, "shuffle", is a word there)
    assert conditions and [c for c in conditions if re.search(rf"(?<![\w/-]){re.escape(c)}(?![\w/-])", text)
                           and c.lower() not in codes.get(c, "").lower()] == []
    assert "{" not in detail and '"max_tokens"' not in detail, detail  # settings in words, not JSON
    assert re.search(r"longest reply: \d+ tokens", detail), detail
    # the technical record stays one click away, for an audit
    pg.p.locator("#results-detail summary").click()
    record = pg.p.locator("#results-detail details").inner_text()
    assert "max_tokens" in record and "condition: " in record and "prompt: " in record
    pg.shot("technical-record")
    assert not pg.errors, pg.errors


#: whether the focused element shows it: an outline or a focus shadow on it (a checkbox's may be on its label)
FOCUS_SHOWN_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return false;
  const shows = (e) => { const s = getComputedStyle(e);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || (s.boxShadow && s.boxShadow !== 'none'); };
  return shows(el) || (el.closest('label') ? shows(el.closest('label')) : false);
}"""


class Keys:
    """Counts the keys a path takes (issue 51, U35: 101 Tabs from an empty page to an opened answer)."""

    def __init__(self, pg: Page) -> None:
        self.pg, self.n = pg, 0

    def press(self, key: str) -> None:
        self.n += 1
        self.pg.p.keyboard.press(key)

    def tab_to(self, selector: str, limit: int = 250) -> str:
        """Press Tab until the focus is on ``selector``; asserts the focus shows there and no menu is left open
        behind it, and returns the focused element's text or value."""
        for _ in range(limit):
            self.press("Tab")
            if self.pg.p.evaluate("(sel) => !!document.activeElement?.matches(sel)", selector):
                assert self.pg.p.evaluate(FOCUS_SHOWN_JS), f"the focus on {selector} is not visible"
                return self.pg.p.evaluate("() => document.activeElement.value || document.activeElement.innerText"
                                          " || ''")
            # a menu whose field the focus left closes (it stayed open over the fields below); the browser closes it
            # on the blur, which on a loaded CI machine can take more than a second to be drawn
            stray = ("[...document.querySelectorAll('[role=listbox]')].filter((l) => l.offsetParent &&"
                     " l.id !== document.activeElement.getAttribute('aria-controls'))")
            try:
                self.pg.p.wait_for_function(f"() => {stray}.length === 0", timeout=5000)
            except Exception as exc:  # noqa: BLE001 - Playwright's timeout, said in words
                left = self.pg.p.evaluate(f"() => {stray}.map((l) => l.id || l.outerHTML.slice(0, 120))")
                focus = self.pg.p.evaluate("() => document.activeElement?.outerHTML.slice(0, 160)")
                raise AssertionError(f"a dropdown's menu stayed open after the focus left it: {left}; "
                                     f"the focus is on {focus}") from exc
        raise AssertionError(f"Tab never reached {selector}")


def test_the_common_probe_path_works_with_the_keyboard_alone(server, browser):
    """Tab, Enter, Space and typing only: tick a model, choose an example image, type a question and its options,
    Run with Ctrl+Enter, reach an answer and open its detail; the focus is visible at every step, no menu stays
    open behind it, the answer's buttons name their cell, and the whole path takes at most 60 keys (101 before)."""
    pg = _open(browser, server.url, "desk-1440x900", "keyboard")
    pg.p.locator("body").focus()
    keys = Keys(pg)
    keys.tab_to("#probe-models input[type=checkbox]")
    keys.press("Space")
    assert pg.p.locator("#probe-models input[type=checkbox]:checked").count() == 1
    keys.tab_to("#probe-gallery button.thumbnail-item")
    keys.press("ArrowRight")  # the pictures are one stop; the arrows move between them
    keys.press("Enter")
    pg.wait_text("#probe-image-info", "PNG")
    keys.tab_to("#probe-question textarea")
    pg.p.keyboard.type("Which modality is this?")
    keys.tab_to("#probe-options textarea")
    pg.p.keyboard.type("CT\nMRI")
    pg.shot("ready")
    keys.press("Control+Enter")  # Run, from the field being typed in
    pg.table_done(1)
    keys.tab_to("#probe-table button[data-act='rate']")
    aria = pg.p.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert re.fullmatch(r"rate correct: baseline/\w+'s answer to original", aria), aria
    keys.tab_to("#probe-table button[data-act='open']")
    pg.shot("answer-focused")
    keys.press("Enter")
    pg.wait_text("#probe-detail", r"Response #\d+", timeout_s=30)
    assert "Which modality is this?" in pg.p.locator("#probe-detail").inner_text()
    assert keys.n <= 60, f"the keyboard path took {keys.n} keys"
    pg.shot("detail-open")
    assert not pg.errors, pg.errors


NODULES = "Nodule in the right upper lobe\nNodule in the right lower lobe\nNodule in the left lower lobe"

#: every answer in a cell shown whole (no line clamped away) and in at most two lines
ANSWERS_WHOLE_JS = """() => [...document.querySelectorAll('#probe-table .pu-ans')].map((a) => {
  const words = a.querySelector('.pu-words');
  const lines = words ? new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size : 0;
  return {words: words ? words.innerText : null, letter: a.querySelector('.pu-letter')?.innerText || null,
          cut: a.scrollHeight > a.clientHeight + 1, lines: lines,
          letterPx: parseFloat(getComputedStyle(a.querySelector('.pu-letter') || a).fontSize),
          wordsPx: parseFloat(getComputedStyle(words || a).fontSize)};
})"""
ROW_HEADS_CUT_JS = """() => [...document.querySelectorAll('#probe-table th.pu-variant .pu-label')]
  .filter((l) => l.scrollWidth > l.clientWidth + 1 || l.getBoundingClientRect().right >
                 l.closest('.pu-scroll').getBoundingClientRect().right + 1).map((l) => l.innerText)"""


def test_four_models_on_a_projector_answer_in_words_the_room_can_tell_apart(demo_server, browser, fake_openai):
    """Issue 51, U30 and U40: presenter mode at 1024 x 768 (125 %) with four models and three options that differ
    only at their end. Each answer shows its option's words whole, in two lines at most, the letter small; no
    column or row label is cut; the Upload tab is in view, not behind a menu."""
    require_axe()
    pg = _open(browser, demo_server.url, "projector-1024x768-125", "four-models")
    assert pg.p.get_by_role("tab", name="Upload", exact=True).is_visible()  # U40: not folded into "…"
    fake_openai.responder = lambda body: "C" if body["model"] == "gpt-4o" else "A"
    add_endpoint(pg, fake_openai, "radiology-a", "radiology-b")
    for m in ("baseline/random", "baseline/last", "radiology-a", "radiology-b"):
        pg.tick("probe-models", m)  # baseline/first stays ticked: four models
    assert pg.p.locator("#probe-models input[type=checkbox]:checked").count() == 4
    pg.fill("probe-question", "Where is the nodule?")
    pg.fill("probe-options", NODULES)
    pg.p.wait_for_timeout(800)
    pg.pick("probe-answer", "Nodule in the left lower lobe")
    pg.p.locator("#probe-run").click()
    pg.table_done(12, timeout_s=90)
    pg.p.wait_for_timeout(300)
    pg.p.screenshot(path=str(pg.dir / "01-answers-in-view.png"))
    shown = pg.p.evaluate(ANSWERS_WHOLE_JS)
    assert len(shown) == 12
    for a in shown:
        assert a["words"] in NODULES.splitlines(), a  # the option's words, whole
        assert not a["cut"] and a["lines"] <= 2, a
        assert a["letter"] in ("A ·", "B ·", "C ·") and a["letterPx"] < a["wordsPx"], a  # the letter small
    assert pg.p.locator("#probe-table table").count() == 2  # two tables of two models
    assert pg.p.evaluate(CLIPPED_JS) == []
    assert pg.p.evaluate(ROW_HEADS_CUT_JS) == []
    assert pg.p.evaluate(SPLIT_WORDS_JS, pg.p.locator("#probe-table").element_handle()) == []
    pg.shot("answers-full-page")
    found = violations(pg.p, "#probe-table")
    assert not found, report(found)
    assert not pg.errors, pg.errors


def test_a_reload_brings_back_the_table_and_presenter_mode_and_ratings_follow_the_answers(server, browser,
                                                                                         tmp_path):
    """Issue 51: U31 (a reload mid-demo lost the table and presenter mode, and the models typed by name), U34 (a
    probe asked again with one more model lost the ratings given a minute earlier), U36 (a correct answer undone
    without a word; a run without one, unwarned), U45 (the upload's name) and U46 (a typed question asked with a
    paper's prompt)."""
    pg = _open(browser, server.url, "desk-1440x900", "reload")
    pg.p.get_by_role("tab", name="Upload", exact=True).click()
    pg.p.locator("#probe-upload input[type=file]").set_input_files(_square_png(tmp_path / "chest-film.png"))
    pg.wait_text("#probe-image-info", "chest-film.png")  # U45: the file probed is named
    assert "chest-film.png" in pg.p.locator("#probe-upload").inner_text()
    pg.fill("probe-question", "Where is the nodule?")
    pg.fill("probe-options", NODULES)
    pg.p.wait_for_timeout(800)
    pg.pick("probe-answer", "Nodule in the left lower lobe")
    pg.tick("probe-presenter", "presenter mode: large type for a projector")
    pg.tick("probe-models", "baseline/last")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    first_run = pg.run_name()
    pg.p.locator("#probe-table button[data-act='rate'][data-rating='correct']").first.click()
    pg.wait_text("#probe-table .pu-rated", "you: correct")
    # U46: a question of one's own is asked plainly, not with MediConfusion's system prompt and its typo
    pg.p.locator("#probe-table button[data-act='open']").first.click()
    pg.wait_text("#probe-detail", "Look at the image and answer the question")
    assert "assitant" not in pg.p.locator("#probe-detail").inner_text()
    # one more model, typed by name: a new run, the rating carried over to the same answer
    pg.p.get_by_text("another model by name (provider/model)").click()
    pg.fill("probe-adhoc", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(2)
    assert pg.run_name() != first_run
    pg.wait_text("#probe-run-msg", "1 of your ratings from the run before were carried over")
    rated = pg.p.locator("#probe-table td.pu-cell[data-model='baseline/last'] .pu-rated")
    assert rated.inner_text() == "you: correct"
    assert pg.p.locator("#probe-table td.pu-cell[data-model='baseline/first'] .pu-rated").count() == 0
    second_run = pg.run_name()
    pg.p.wait_for_timeout(1500)  # the draft is written as the page changes
    pg.shot("before-reload")
    pg.p.reload()
    pg.p.locator("#probe-run").wait_for()
    pg.wait_text("#probe-table .pu-progress", "2 of 2 answers · finished")
    assert pg.run_name() == second_run
    assert pg.p.evaluate("() => document.body.classList.contains('pu-presenter')")
    assert pg.p.locator("#probe-presenter input").is_checked()
    assert pg.p.locator("#probe-adhoc textarea, #probe-adhoc input").first.input_value() == "baseline/first"
    assert pg.p.locator("#probe-table .pu-rated").inner_text() == "you: correct"
    pg.p.wait_for_timeout(500)
    assert "asked before this image" not in pg.p.locator("#probe-run-msg").inner_text()  # it was asked on it
    pg.shot("after-reload")
    # U36: an answer that leaves the options is emptied with a word beside the question; Run then says so too
    pg.fill("probe-options", "Nodule in the right upper lobe\nNodule in the right lower lobe\nNo nodule")
    pg.wait_text("#probe-question-msg", "no longer one of the options")
    assert "&#" not in pg.p.locator("#probe-question-msg").inner_text()  # escaped once: the words, not entities
    pg.p.locator("#probe-run").click()
    pg.wait_text("#probe-run-msg", "No correct answer chosen")
    said = pg.p.locator("#probe-run-msg").inner_text()
    assert "under 'correct answer'" in said and "&#" not in said, said  # escaped once, shown in words
    pg.shot("no-answer-warned")
    assert not pg.errors, pg.errors


def _uncovered(pg: Page, selector: str) -> bool:
    """The element's middle is the element itself (or inside it): nothing drawn over it."""
    return pg.p.evaluate("""(sel) => { const e = document.querySelector(sel), r = e.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!top && (top === e || e.contains(top)); }""", selector)


@pytest.mark.parametrize("screen", list(SCREENS))
def test_batch_start_is_in_view_when_the_tab_opens_and_start_brings_its_result_into_view(server, browser, screen):
    """The Batch tab's Start is whole and uncovered in the window as the tab opens, on the desk (where the whole
    form above it fits too) and on a projector (where the row of buttons stays at the window's foot); pressing it
    brings the line that says how the batch ended into view; the runs table says when in words, not a code name."""
    pg = _open(browser, server.url, screen, "batch-start")
    pg.tab("Batch")
    pg.p.locator("#batch-start").wait_for()
    pg.p.wait_for_timeout(500)
    pg.p.screenshot(path=str(pg.dir / "01-tab-opened.png"))
    assert _in_view(pg, "#batch-start") and _uncovered(pg, "#batch-start"), "Start is not in view"
    if screen.startswith("desk"):  # everything Start asks with is above it, none of it under the buttons
        for sel in ("#batch-presets", "#batch-models", "#batch-suites", "#batch-run-name", "#batch-structured",
                    "#batch-provider-batch"):
            box = pg.p.locator(sel).bounding_box()
            assert box["y"] + box["height"] <= pg.p.locator("#batch-actions").bounding_box()["y"] + 1, sel
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-models", "baseline/first")
    pg.p.locator("#batch-start").click()
    status = pg.wait_text("#batch-status", r"Finished", timeout_s=120)
    assert "Finished: medvh_nota-seed0" in status, status
    pg.p.wait_for_timeout(800)  # the smooth scroll
    pg.p.screenshot(path=str(pg.dir / "02-finished-in-view.png"))
    assert _in_view(pg, "#batch-status .pu-done"), "how the batch ended is not in view after Start"
    runs = pg.wait_text("#batch-runs", r"medvh_nota-seed0")
    assert "last change" in runs and "updated_at" not in runs
    assert re.search(r"medvh_nota-seed0\s+batch\s+\d+\s+0\s+\d+\s+yes\s+\d{2} [A-Z][a-z]{2} \d{2}:\d{2}:\d{2}",
                     runs), runs
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_tabs_main_action_is_in_view_as_the_tab_opens(server, browser, screen):
    """Run, Run stress test, Start and Show results: each whole and uncovered in the window as its tab opens, on the
    desk and on a projector (where Stress, Batch and Results keep theirs at the window's foot until scrolled to)."""
    pg = _open(browser, server.url, screen, "main-actions")
    for tab, button in (("Probe", "#probe-run"), ("Stress", "#stress-run"), ("Batch", "#batch-start"),
                        ("Results", "#results-show")):
        pg.tab(tab)
        pg.p.locator(button).wait_for()
        pg.p.wait_for_timeout(400)
        pg.p.screenshot(path=str(pg.dir / f"{tab.lower()}.png"))
        assert _in_view(pg, button) and _uncovered(pg, button), f"{tab}: {button} is not in view"
    assert not pg.errors, pg.errors
