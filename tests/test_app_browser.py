"""The app in a real browser (Debian's chromium, headless, driven by Playwright): the flows a clinician follows,
at 1440 x 900.

Screenshots of every step go to ``test-artifacts/`` (or ``$PROBE_UI_ARTIFACTS``). Skipped when chromium is not
installed (``apt-get install chromium``), failed under CI=true (.ci/run installs it).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from app_server import module_app, serving, start_app
from helpers import busy_threads, require_chromium
from pydicom.data import get_testdata_file
from shared_chromium import close_contexts

from probe_ui.runner import BatchOptions

ARTIFACTS = Path(os.environ.get("PROBE_UI_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))

@pytest.fixture(autouse=True)
def chromium() -> str:
    return require_chromium()


@pytest.fixture
def browser(chromium, shared_chromium):
    """The module's chromium (tests/shared_chromium.py); the pages this test opens are closed after it."""
    try:
        yield shared_chromium
    finally:
        close_contexts(shared_chromium)


#: one app for the module's tests (tests/app_server.py, module_app): each test works in browser contexts of its own
#: (its own session) and on runs, endpoints and sets it names itself
server = module_app(demo=False, max_upload_mb=50)


@pytest.fixture
def fresh_server(tmp_path, monkeypatch):
    """An app of the test's own, for a test whose run name (``medvh_nota+rotations-seed0``, a blank name's default)
    another test of the module's app also makes."""
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=50)


class Page:
    """A few Gradio-aware helpers over a Playwright page, with numbered screenshots."""

    def __init__(self, page, name: str) -> None:
        self.p = page
        self.dir = ARTIFACTS / name
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in [*self.dir.glob("*.png"), *self.dir.glob("*.jpg")]:
            old.unlink()
        self.n = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, label: str) -> None:
        """The whole page (below the fold too) for a person to look at; no test reads these files. JPEG at quality 80:
        measured on a 1440 x 6064 page, 0.36-0.44 s of CPU a shot against 0.59-0.64 s as PNG (2026-11-29)."""
        self.n += 1
        self.p.screenshot(path=str(self.dir / f"{self.n:02d}-{label}.jpg"), full_page=True, type="jpeg", quality=80)

    def tab(self, name: str) -> None:
        self.p.get_by_role("tab", name=name, exact=True).click()

    def pick(self, elem_id: str, text: str) -> None:
        """Choose a dropdown option by typing it (works for custom values too)."""
        box = self.p.locator(f"#{elem_id} input").first
        box.click()
        box.fill(text)
        option = self.p.locator(f"li[data-testid='dropdown-option'][aria-label={text!r}]")
        try:
            option.first.wait_for(timeout=3000)
            option.first.click()
        except Exception:  # noqa: BLE001 - a custom value (not one of the options): Enter keeps what was typed
            box.press("Enter")
        box.blur()

    def fill(self, elem_id: str, text: str) -> None:
        field = self.p.locator(f"#{elem_id} textarea, #{elem_id} input").first
        field.fill(text)
        field.blur()

    def code(self, elem_id: str, text: str) -> None:
        editor = self.p.locator(f"#{elem_id} .cm-content")
        editor.click()
        self.p.keyboard.press("Control+A")
        self.p.keyboard.type(text)
        self.p.locator("body").click(position={"x": 5, "y": 5})

    def tick(self, elem_id: str, label: str) -> None:
        self.p.locator(f"#{elem_id} label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")).click()

    def wait_text(self, selector: str, pattern: str, timeout_s: float = 30) -> str:
        loc = self.p.locator(selector)
        deadline = time.monotonic() + timeout_s
        text = ""
        while time.monotonic() < deadline:
            text = "\n".join(loc.all_inner_texts())
            if re.search(pattern, text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{selector} never showed {pattern!r}; last text: {text[:500]!r}\n{busy_threads()}")

    def run_name(self) -> str:
        return self.p.locator("#probe-run-name textarea, #probe-run-name input").first.input_value()

    def table_done(self, n: int, timeout_s: float = 60) -> None:
        """Wait until the Probe tab's table says all ``n`` answers are in."""
        self.wait_text("#probe-table .pu-progress", rf"{n} of {n} answers · finished", timeout_s)

    def cells(self, table: str = "#probe-table") -> list[dict[str, str]]:
        return self.p.eval_on_selector_all(
            f"{table} td.pu-cell", "els => els.map(e => ({model: e.dataset.model, state: e.dataset.state, "
            "variant: e.dataset.variant, response: e.dataset.response || '', text: e.innerText}))")

    def click_image(self, fx: float, fy: float) -> None:
        """Click the Probe tab's image at a fraction of its width and height (scrolled into view first)."""
        img = self.p.locator("#probe-image img")
        img.scroll_into_view_if_needed()
        box = img.bounding_box()
        self.p.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)

    def click_pixel(self, x: float, y: float, width: int) -> None:
        """Click the Probe tab's image at (x, y) in the pixels of an image ``width`` pixels wide, wherever the page
        draws the picture inside the image's box (it is scaled, then centred and never enlarged past its size)."""
        img = self.p.locator("#probe-image img")
        img.scroll_into_view_if_needed()
        at = img.evaluate("""(i, [x, y, width]) => {
            const r = i.getBoundingClientRect(), nw = i.naturalWidth, nh = i.naturalHeight;
            let s = Math.min(r.width / nw, r.height / nh);
            if (getComputedStyle(i).objectFit === 'scale-down') s = Math.min(s, 1);
            const k = nw / width;
            return [r.left + (r.width - nw * s) / 2 + x * k * s, r.top + (r.height - nh * s) / 2 + y * k * s];
        }""", [x, y, width])
        self.p.mouse.click(at[0], at[1])

    def ask(self, options: str, answer: str | None = None, question: str = "Which modality?",
            image: str = "ct_head_axial.png") -> None:
        """A bundled image and a multiple-choice question about it (the set-up most flows share)."""
        self.gallery_pick(image)
        self.wait_text("#probe-image-info", "PNG")
        self.fill("probe-question", question)
        self.fill("probe-options", options)
        if answer:
            self.pick("probe-answer", answer)

    def gallery_pick(self, name: str) -> None:
        """Click a bundled image by its file name (the gallery shows names as captions)."""
        self.p.locator("#probe-gallery button", has_text=name[:8]).first.click()

    def toast(self, pattern: str, timeout_s: float = 20) -> str:
        return self.wait_text(".toast-body", pattern, timeout_s)


VIEW = {"width": 1440, "height": 900}


def open_page(browser, server, name: str) -> Page:
    """A new page at 1440 x 900 on the app, its screenshots under ``test-artifacts/<name>``, once the run bar is
    there."""
    pg = Page(browser.new_page(viewport=VIEW), name)
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    return pg


def add_endpoint(pg: Page, fake_openai, *names: str) -> None:
    """OpenAI-compatible endpoints on the loopback server, added in this page's Models tab (an endpoint is its
    session's own: one added by another session would not be offered here), then back on the Probe tab, whose
    model list is read again as it opens, until it offers them. One visit adds them all: the form keeps the base
    URL and model after an add and empties the key."""
    pg.tab("Models")
    pg.fill("models-url", fake_openai.base_url)
    pg.fill("models-model", "gpt-4o")
    for name in names:
        pg.fill("models-key", "sk-browser-key")
        pg.fill("models-name", name)
        pg.p.locator("#models-add").click()
        pg.wait_text("#models-added", re.escape(name))
    pg.tab("Probe")
    for name in names:
        pg.p.locator("#probe-models label", has_text=name).wait_for(timeout=15000)


def test_demo_run_on_the_first_screen_gives_option_texts(tmp_path, browser, monkeypatch):
    """Demo: Run is on the first screen; one click gives a table of answers in words; a click on the image draws
    a dot at once; the page loads nothing from outside the machine."""
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.chdir(tmp_path)
    server = start_app(tmp_path, demo=True)
    try:
        pg = Page(browser.new_page(viewport=VIEW), "demo")
        outside: list[str] = []
        pg.p.on("request",
                lambda r: None if r.url.startswith((server.url, "data:", "blob:")) else outside.append(r.url))
        pg.p.goto(server.url)
        run = pg.p.locator("#probe-run")
        run.wait_for()
        pg.wait_text("#probe-image-info", "PNG")
        box = run.bounding_box()
        assert box["y"] + box["height"] <= VIEW["height"], box  # Run without scrolling
        assert "press Run" in pg.p.locator("#probe-demo-banner").inner_text()
        pg.shot("first-screen")
        run.click()
        pg.table_done(6)
        cells = pg.cells()
        assert len(cells) == 6 and {c["model"] for c in cells} == {"baseline/random", "baseline/first"}
        assert all(re.search(r"[AB] · \w", c["text"]) for c in cells)  # letter and option text
        labels = pg.p.locator("#probe-table .pu-label").all_inner_texts()
        assert labels == ["original", "rotated 180°", "options shuffled"]
        assert pg.p.locator("#probe-table img.pu-thumb").count() == 3  # the exact image each row sent
        pg.shot("answered")
        # a click on the (enlarged) image places a dot in the image's own pixels and draws it at once
        pg.p.wait_for_function("() => { const i = document.querySelector('#probe-image img');"
                               " return i && i.complete && i.naturalWidth > 0; }")
        before = pg.p.locator("#probe-image img").get_attribute("src")
        pg.click_image(0.25, 0.5)
        steps = pg.wait_text("#probe-steps", "dots")
        assert "given" in steps
        pg.p.wait_for_function(f"() => document.querySelector('#probe-image img').src !== {before!r}")
        point = [int(v) for v in re.search(r"\[\[(\d+), (\d+)\]\]", steps).groups()]
        assert 100 <= point[0] <= 156 and 230 <= point[1] <= 282, point  # a quarter across, half down the 512²
        pg.shot("dot-drawn")
        # a click beside the picture says so, next to it
        frame = pg.p.locator("#probe-image").bounding_box()
        pg.p.mouse.click(frame["x"] + 3, frame["y"] + 30)
        pg.wait_text("#probe-click-hint", "outside the picture")
        assert outside == []  # no fonts, no CDN
        assert not pg.errors, pg.errors
    finally:
        server.app.close()


def test_a_png_after_a_windowed_dicom_is_sent_unwindowed(server, browser):
    """Upload a DICOM, apply a window preset, then pick a bundled PNG: the PNG is sent as the file holds it."""
    from probe_ui import live
    from probe_ui.presets import ASSETS_DIR

    pg = Page(browser.new_page(viewport=VIEW), "window-then-png")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.p.get_by_role("tab", name="Upload").click()
    pg.p.locator("#probe-upload input[type=file]").set_input_files(get_testdata_file("CT_small.dcm",
                                                                                     download=False))
    info = pg.wait_text("#probe-image-info", r"DICOM")
    assert "window 135.5/2063" in info and "withheld" in info
    centre = pg.p.locator("#probe-win-c input").input_value()
    assert float(centre) == 135.5  # the file's own window, not 0/0
    pg.pick("probe-win-preset", "brain 40/80")
    pg.wait_text("#probe-image-info", r"window 40/80")
    pg.shot("dicom-brain-window")
    pg.p.get_by_role("tab", name="Bundled or preset").click()
    pg.gallery_pick("mr_small.png")
    pg.wait_text("#probe-image-info", "PNG")
    assert not pg.p.locator("#probe-window").is_visible()  # no window fields for a PNG
    pg.shot("png-picked")
    pg.fill("probe-question", "Which modality?")
    pg.fill("probe-options", "CT\nMRI")
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    store = server.store()
    sent = store.get_response(int(pg.cells()[0]["response"]))["image_ids"][0]
    assert sent == live.load_upload(str(ASSETS_DIR / "mr_small.png")).image.id
    # resetting the window for the new image is not a request to re-window: no warning about a missing DICOM
    assert "DICOM" not in pg.p.locator("#probe-image-msg").inner_text()
    pg.shot("png-sent-as-is")
    assert not pg.errors, pg.errors


def test_loading_a_preset_item_loads_all_of_it_and_drops_stale_steps(server, browser):
    pg = Page(browser.new_page(viewport=VIEW), "preset-item")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.ask("CT\nMRI")
    pg.p.locator("#probe-add-step").click()  # rotate, with the controls' default angle
    pg.wait_text("#probe-steps", "rotate")
    pg.click_image(0.5, 0.5)  # a dot on this image
    pg.wait_text("#probe-steps", "dots")
    pg.shot("steps-on-another-image")
    pg.pick("probe-preset", "medblink_depth (bundled)")
    pg.pick("probe-item", "depth-echo")
    pg.p.locator("#probe-load-item").click()
    pg.wait_text("#probe-question textarea, #probe-question", "")
    pg.p.wait_for_function("() => document.querySelector('#probe-question textarea').value.startsWith('Which of')")
    assert pg.p.locator("#probe-options textarea").input_value() == "red\ngreen\nblue"
    assert pg.p.locator("#probe-steps tbody tr td").count() == 0 or "dots" not in pg.p.locator(
        "#probe-steps").inner_text()  # the stale steps are gone
    assert "dot colours" in pg.p.locator("#probe-suites").inner_text()  # the suite by its label
    assert not pg.p.locator("#probe-original input").is_checked()
    assert "ultrasound" in pg.p.locator("#probe-item-note").inner_text()
    pg.shot("item-loaded")
    pg.p.locator("#probe-preview").click()
    pg.wait_text("#probe-table", "coloured dots")
    labels = pg.p.locator("#probe-table .pu-label").all_inner_texts()
    assert len(labels) == 6 and all("coloured dots" in x for x in labels)
    metas = pg.p.locator("#probe-table .pu-meta").all_inner_texts()
    assert all(re.search(r"correct: (red|green|blue)", m) for m in metas), metas  # the dots' answers
    pg.shot("item-variants")
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("n_models", [3, 8])
def test_the_table_stays_aligned(server, browser, fake_openai, n_models):
    """3 and 8 models x 6 variants: every cell sits under its model's header, rows do not drift."""
    names = [f"model-{i}" for i in range(n_models - 2)]
    pg = Page(browser.new_page(viewport=VIEW), f"aligned-{n_models}-models")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, *names)
    pg.ask("CT\nMRI\nUltrasound", "CT")
    pg.p.get_by_text("advanced: parameters as JSON").click()  # the JSON field, for exact values
    for params in ('{"angle": 90}', '{"angle": 180}', '{"angle": 270}'):
        pg.code("probe-params", params)
        pg.p.locator("#probe-add-step").click()
    pg.pick("probe-op", "shuffle the options")  # a new perturbation empties the JSON field: its controls count
    pg.wait_text("#probe-op-doc", "shuffle the options")
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps-words", "options shuffled")
    pg.pick("probe-op", "add 'none of the above'")
    pg.wait_text("#probe-op-doc", "none of the above")
    pg.p.locator("#probe-add-step").click()
    pg.shot("steps")
    pg.wait_text("#probe-steps-words", "none of the above")
    for m in ["baseline/first", "baseline/random", *names]:
        pg.tick("probe-models", m)
    pg.p.locator("#probe-run").click()
    pg.table_done(6 * n_models)
    pg.shot("table")
    # more than 4 models: several tables one under the other (4 + 4 for 8), each with the rows' pictures
    tables = pg.p.locator("#probe-table table")
    assert tables.count() == (1 if n_models <= 4 else 2)
    all_heads = []
    for k in range(tables.count()):
        table = tables.nth(k)
        heads = table.evaluate("t => [...t.querySelectorAll('th.pu-model')].map(e => "
                               "[e.innerText, e.getBoundingClientRect().left, e.getBoundingClientRect().width])")
        all_heads += [h[0] for h in heads]
        rows = table.evaluate("t => [...t.querySelectorAll('tbody tr')].map(r => [...r.querySelectorAll("
                              "'td')].map(td => [td.dataset.model, td.getBoundingClientRect().left]))")
        assert len(rows) == 6
        for row in rows:
            assert [m for m, _ in row] == [h[0] for h in heads]
            for (_, left), (_, hleft, _) in zip(row, heads):
                assert abs(left - hleft) < 1.5  # the cell starts where its header starts
    assert all_heads == ["baseline/first", "baseline/random", *names]
    # every column on the 1440 px screen at once: no sideways scrolling to find the last model
    for scroll in pg.p.eval_on_selector_all("#probe-table .pu-scroll", "els => els.map(e => [e.scrollWidth, "
                                            "e.clientWidth])"):
        assert scroll[0] <= scroll[1], f"the table is {scroll[0]} px wide in {scroll[1]} px"
    assert not pg.errors, pg.errors


def test_a_model_without_a_key_next_to_two_baselines(server, browser, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    pg = Page(browser.new_page(viewport=VIEW), "missing-key")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    unusable = pg.p.locator("#probe-unusable")
    unusable.locator("summary").click()
    assert "gpt-4o" in unusable.inner_text() and "OPENAI_API_KEY" in unusable.inner_text()
    assert pg.p.locator("#probe-unusable input[disabled]").count() >= 1  # shown, greyed out, with the reason
    pg.shot("unusable-listed")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/first")
    pg.tick("probe-models", "baseline/random")
    pg.p.get_by_text("another model by name").click()  # typed by name, as a catalogue entry
    pg.fill("probe-adhoc", "gpt-4o")
    pg.p.locator("#probe-run").click()
    pg.table_done(3)
    cells = pg.cells()
    by = {c["model"]: c for c in cells}
    assert by["baseline/first"]["state"] in ("right", "wrong") and by["baseline/random"]["state"] in ("right",
                                                                                                       "wrong")
    assert by["gpt-4o"]["state"] == "error" and "OPENAI_API_KEY" in by["gpt-4o"]["text"]
    pg.shot("missing-key-column")
    assert not pg.errors, pg.errors


def test_a_live_probe_with_pushback_shows_both_turns_per_model_and_the_whole_conversation(server, browser,
                                                                                         fake_openai):
    """Issue 44: a pushback step ("the attending overrules it") on 3 models: the pushback row shows each model's
    first answer and the one after the pushback, marked ↯ where it changed; the detail shows the conversation."""

    def gives_in(body):
        turns = [m for m in body["messages"] if m["role"] != "system"]
        return "A" if len(turns) == 1 else "You're right, I apologize: the answer is B."

    fake_openai.responder = gives_in
    pg = Page(browser.new_page(viewport=VIEW), "pushback")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, "gives-in")
    pg.ask("CT\nMRI\nUltrasound", "CT")
    pg.pick("probe-op", "push back after its answer (\"Are you sure?\", ...)")
    pg.wait_text("#probe-op-doc", "same conversation")
    pg.p.get_by_text("advanced: parameters as JSON").click()
    pg.code("probe-params", '{"pressure": "authority"}')
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps-words", "pushed back: the attending overrules it")
    for m in ("baseline/first", "baseline/last", "gives-in"):
        pg.tick("probe-models", m)
    pg.p.locator("#probe-run").click()
    pg.table_done(6)
    pg.shot("table")
    pushed = {c["model"]: c for c in pg.cells() if "first answer" in c["text"]}
    assert set(pushed) == {"baseline/first", "baseline/last", "gives-in"}
    assert "held after the pushback" in pushed["baseline/first"]["text"]
    gave = pushed["gives-in"]["text"]
    assert "first answer: A · CT" in gave and "changed after the pushback" in gave and "B · MRI" in gave
    pg.p.locator(f"#probe-table td.pu-cell[data-response='{pushed['gives-in']['response']}']").click()
    detail = pg.wait_text("#probe-detail-text", "Prompt sent")
    assert "[assistant]" in detail and "As the attending physician on this case" in detail
    assert "I apologize" in detail  # the reply after the pushback
    pg.shot("conversation")
    assert not pg.errors, pg.errors


def test_rate_in_a_cell_shows_there_and_in_results(server, browser):
    pg = Page(browser.new_page(viewport=VIEW), "rate-in-cell")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/last")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    cell = pg.p.locator("#probe-table td.pu-cell").first
    cell.locator("button[data-rating='incorrect']").click()
    pg.wait_text("#probe-table td.pu-cell", "you: incorrect")
    pg.wait_text("#probe-detail-text", "Prompt sent")  # the cell's detail opened below the table
    pg.fill("probe-note", "said MRI for a CT")
    pg.p.locator("#probe-rate").click()
    pg.wait_text("#probe-table td.pu-cell", "you: incorrect · said MRI for a CT")
    pg.shot("rated-in-cell")
    rid = int(cell.get_attribute("data-response"))
    assert server.store().latest_rating(rid) == ("incorrect", "said MRI for a CT")
    pg.tab("Results")
    pg.wait_text("#results-responses", "incorrect")
    pg.shot("rating-in-results")
    assert not pg.errors, pg.errors


def test_a_slow_model_does_not_hold_up_the_others(server, browser, fake_openai):
    """One model answers only when the test lets it (after the checks below, at most 60 s): the baselines' cells
    fill at once and the page keeps answering clicks while it thinks."""
    release = threading.Event()
    fake_openai.responder = lambda body: (release.wait(60), "A")[1]
    try:
        pg = Page(browser.new_page(viewport=VIEW), "slow-model")
        pg.p.goto(server.url)
        pg.p.locator("#probe-run").wait_for()
        add_endpoint(pg, fake_openai, "slow")
        pg.fill("probe-question", "Is this a CT image?")
        pg.gallery_pick("ct_head_axial.png")
        pg.wait_text("#probe-image-info", "PNG")
        pg.p.get_by_label("yesno").check()
        pg.pick("probe-answer", "yes")
        for m in ("baseline/first", "baseline/random", "slow"):
            pg.tick("probe-models", m)
        pg.p.locator("#probe-run").click()
        pg.wait_text("#probe-table .pu-progress", r"2 of 3 answers", timeout_s=60)
        pg.shot("baselines-answered")
        assert pg.p.locator("#probe-table td.pu-cell[data-state='waiting']").count() == 1
        pg.p.get_by_text("the exact prompts of the variants").click()
        pg.p.locator("#probe-preview").click()  # while the slow model thinks, the page still does other work
        pg.wait_text("#probe-prompts", "Is this a CT image?", timeout_s=60)
        pg.shot("page-responsive")
        pg.tab("Models")  # the live calls now: the slow model's one call in flight at its server, none waiting
        pg.p.locator("#models-live-calls-refresh").click()
        pg.wait_text("#models-live-calls", fake_openai.base_url.split("//")[1], timeout_s=30)
        cells = pg.p.locator("#models-live-calls tr", has_text=fake_openai.base_url.split("//")[1]).locator("td")
        assert [cells.nth(i).inner_text().strip() for i in (2, 3)] == ["1", "0"]
        pg.shot("live-calls")
        pg.tab("Probe")
        release.set()  # the slow model answers now
        pg.table_done(3, timeout_s=90)
        pg.shot("slow-answered")
    finally:
        release.set()


def test_bad_uploads_show_an_error_and_lose_nothing(server, browser, tmp_path):
    pg = Page(browser.new_page(viewport=VIEW), "bad-uploads")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.ask("CT\nMRI")
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    from probe_ui.store import responses

    store = server.store()
    before = store.count(responses)
    pg.p.get_by_role("tab", name="Upload").click()
    corrupt = tmp_path / "scan.dcm"
    corrupt.write_bytes(b"DICM" + os.urandom(4000))
    pg.p.locator("#probe-upload input[type=file]").set_input_files(str(corrupt))
    pg.wait_text("#probe-image-msg", r"Not loaded.*scan\.dcm")  # next to the image, in words
    pg.shot("corrupt-upload")
    huge = tmp_path / "huge.png"
    with open(huge, "wb") as f:  # 200 MB, sparse: nothing is really written
        f.truncate(200 * 1024 * 1024)
    pg.p.locator("#probe-upload input[type=file]").set_input_files(str(huge))
    pg.toast(r"(?i)(exceed|too large|maximum|size)")
    pg.shot("huge-upload")
    assert "PNG" in pg.p.locator("#probe-image-info").inner_text()  # the image being probed stays
    first_run = pg.run_name()
    pg.p.locator("#probe-run").click()  # the page still works, and the earlier answer is still stored
    deadline = time.monotonic() + 30
    while pg.run_name() == first_run:
        assert time.monotonic() < deadline, "the second run never started"
        time.sleep(0.1)
    pg.table_done(1)
    assert store.count(responses) == before + 1


def test_an_empty_set_name_is_marked_beside_the_field(server, browser):
    pg = Page(browser.new_page(viewport=VIEW), "inline-messages")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.ask("CT\nMRI")
    pg.p.locator("#probe-save").click()
    pg.wait_text("#probe-save-msg", "type a name for the benchmark set")
    assert "pu-bad" in (pg.p.locator("#probe-set-name").get_attribute("class") or "")
    pg.shot("set-name-needed")
    pg.pick("probe-set-name", "browser-set")
    pg.p.locator("#probe-save").click()
    pg.wait_text("#probe-save-msg", r"Saved item .* to benchmark set browser-set")
    assert (server.db.parent / "presets" / "browser-set.yaml").is_file()
    pg.shot("saved")


def test_stress_and_batch_tabs(server, browser):
    """A suite over a preset as the comparison table, the Probe tab's models carried over; a batch with its
    progress and its run in the list."""
    pg = Page(browser.new_page(viewport=VIEW), "stress-batch")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tick("probe-models", "baseline/first")
    pg.tick("probe-models", "baseline/random")
    pg.tab("Stress")
    pg.p.locator("#stress-source").get_by_label("a preset").check()
    pg.pick("stress-preset", "mediconfusion_pairs (bundled)")
    pg.pick("stress-suite", "every order of the options (CircularEval)")
    # carried over from the Probe tab (the carry-over is an event of its own: wait for it, as a user's eye would)
    pg.p.wait_for_function("() => document.querySelectorAll('#stress-models input:checked').length >= 2",
                           timeout=15000)
    assert pg.p.locator("#stress-models input:checked").count() == 2
    pg.p.locator("#stress-run").click()
    pg.wait_text("#stress-run-name", "", timeout_s=5)
    pg.p.locator("#stress-summary table").wait_for(timeout=120000)
    pg.wait_text("#stress-matrix .pu-progress", r"64 of 64 answers", timeout_s=120)
    cells = pg.cells("#stress-matrix")
    assert len(cells) == 64  # 16 items x (original + one cyclic shift) x 2 models
    first = [c for c in cells if c["model"] == "baseline/first"]
    assert any(c["state"] == "broke" for c in first) and all(" · " in c["text"] for c in first)
    pg.shot("stress-table")
    pg.p.locator("#stress-matrix td.pu-broke").first.click()
    pg.wait_text("#stress-detail-text", "Prompt sent")
    pg.shot("stress-detail")
    pg.tab("Batch")
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-models", "baseline/first")
    pg.tick("batch-suites", "rotations")
    pg.p.locator("#batch-start").click()
    status = pg.wait_text("#batch-status", r"answers planned", timeout_s=120)
    assert "0 errors" in status
    pg.wait_text("#batch-runs", r"medvh_nota\+rotations-seed0")
    pg.shot("batch-done")
    pg.tab("Results")
    pg.wait_text("#results-overview", "baseline/first")
    pg.shot("results-latest-run")
    assert not pg.errors, pg.errors


def test_untrusted_markdown_is_shown_as_text_and_loads_nothing(server, browser, fake_openai, tmp_path):
    """A model's reply, a preset's name and a run's errors that carry Markdown image links are shown as text: the
    browser never fetches their URLs (F5)."""
    link = "![x](http://203.0.113.9/leak.png)"
    fake_openai.responder = lambda body: f"A {link}"
    preset = tmp_path / "evil.yaml"
    preset.write_text(f"name: '{link}'\nitems:\n  - id: a\n    image: mr_small.png\n    question: Which?\n"
                      "    options: [CT, MRI]\n    answer: MRI\n  - id: b\n    image: missing.png\n"
                      "    question: Which?\n    options: [CT, MRI]\n", encoding="utf-8")
    pg = Page(browser.new_page(viewport=VIEW), "untrusted-markdown")
    outside: list[str] = []
    pg.p.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:")) else outside.append(r.url))
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, "echo")
    pg.tab("Models")
    pg.pick("models-spec", "echo")
    pg.p.locator("#models-test").click()
    pg.wait_text("#models-result", re.escape(link))  # the link as text
    pg.tab("Batch")
    pg.p.locator("#batch-upload input[type=file]").set_input_files(str(preset))
    pg.tick("batch-models", "echo")
    pg.fill("batch-run-name", "evil-run")
    pg.p.locator("#batch-start").click()
    status = pg.wait_text("#batch-status", r"answers planned", timeout_s=120)
    assert "missing.png" in status  # the item that could not be loaded is named, as text
    pg.tab("Results")
    pg.pick("results-runs", "evil-run")
    pg.p.locator("#results-show").click()
    pg.wait_text("#results-overview", "echo")
    pg.shot("links-as-text")
    time.sleep(1)
    assert outside == [], outside
    assert not pg.errors, pg.errors


def test_stress_sweep_draws_its_curve_live_and_shows_where_it_broke(server, browser, fake_openai):
    """A blur sweep of the Probe tab's item: the calls are counted before Run, the curve grows while answers
    arrive, and an item's breaking image is shown beside its original."""
    fake_openai.latency_s = 0.4
    pg = Page(browser.new_page(viewport=VIEW), "stress-sweep")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, "loop")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/random")
    pg.tick("probe-models", "loop")
    pg.tab("Stress")
    pg.p.locator("#stress-mode").get_by_label("a severity sweep of one perturbation").check()
    pg.pick("stress-sweep", "blur")
    plan = pg.wait_text("#stress-plan", r"= 12 calls")  # (original + 5 levels) x 2 models
    pg.p.locator("#stress-suite-doc").wait_for(state="hidden")  # the suite's description went with the suite
    assert "no price known for loop" in plan
    pg.p.locator("#stress-run").click()
    pg.p.locator("#stress-curve .js-plotly-plot").first.wait_for(timeout=60000)  # interactive (Plotly)
    pg.shot("curve-while-answers-arrive")
    pg.wait_text("#stress-matrix .pu-progress", r"12 of 12 answers", timeout_s=120)
    labels = pg.p.locator("#stress-matrix .pu-label").all_inner_texts()
    assert labels[0] == "original" and all("blurred" in x for x in labels[1:]) and len(labels) == 6
    pg.shot("curve-done")
    pg.pick("stress-b-model", "baseline/random")
    pg.p.locator("#stress-b-show").click()
    pg.wait_text("#stress-b-text", r"(first changed its answer|never changed its answer)")
    pg.shot("breaking-image")
    assert not pg.errors, pg.errors


def test_ratings_carry_the_raters_name_and_it_is_remembered(server, browser):
    pg = Page(browser.new_page(viewport=VIEW), "rater-name")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.fill("probe-rater", "Dr Lee")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    cell = pg.p.locator("#probe-table td.pu-cell").first
    cell.locator("button[data-rating='correct']").click()
    pg.wait_text("#probe-table td.pu-cell", "you: correct")
    rid = int(cell.get_attribute("data-response"))
    assert server.store().latest_rating(rid, rater="Dr Lee") == ("correct", "")
    pg.p.reload()
    pg.p.locator("#probe-run").wait_for()
    pg.p.wait_for_function("() => document.querySelector('#probe-rater input, #probe-rater textarea')"
                           ".value === 'Dr Lee'")  # kept in this browser
    pg.shot("name-remembered")
    assert not pg.errors, pg.errors


@pytest.fixture
def login_server(tmp_path, monkeypatch):
    from app_server import USERS

    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=50, users=USERS)


def signed_in(browser, server, user: str, name: str, viewport: dict[str, int] = VIEW) -> Page:
    """A browser context of its own (its own cookies), signed in as ``user`` through the login page."""
    from app_server import USERS

    pg = Page(browser.new_context(viewport=viewport).new_page(), name)
    pg.p.goto(server.url)
    pg.p.get_by_label("username").fill(user)
    pg.p.get_by_label("password").fill(USERS[user][1])
    pg.shot("login")
    with pg.p.expect_navigation():  # the page reloads, signed in
        pg.p.get_by_role("button", name="Login").click()
    pg.p.locator("#tabs").wait_for()
    pg.wait_text("#signed-in", f"signed in as {user}")
    return pg


def test_each_person_sees_their_own_endpoints_and_a_viewer_only_results(login_server, browser, fake_openai):
    """Issue 23, in the browser: Alice's endpoint is hers (Bob's Models tab and run bar do not list it), and a
    viewer's page offers the Results tab only; the header names the store by its file name."""
    alice = signed_in(browser, login_server, "alice", "users-alice")
    add_endpoint(alice, fake_openai, "alices-model")
    alice.tab("Models")
    alice.wait_text("#models-table", "alices-model")
    alice.shot("alice-models")

    bob = signed_in(browser, login_server, "bob", "users-bob")
    bob.tab("Models")
    bob.p.locator("#models-table").wait_for()
    assert "alices-model" not in bob.p.locator("#models-table").inner_text()
    bob.tab("Probe")
    bob.p.locator("#probe-models label", has_text="baseline/first").wait_for()
    assert "alices-model" not in bob.p.locator("#probe-models").inner_text()
    bob.shot("bob-probe")
    header = bob.p.locator("code", has_text="probe-ui.db").first.inner_text()
    assert header == "probe-ui.db"  # no path on the server

    vera = signed_in(browser, login_server, "vera", "users-viewer", viewport={"width": 1024, "height": 768})
    vera.p.locator("#results-show").wait_for()
    vera.wait_text("#signed-in", r"vera \(viewer\)")
    # issue 51, U44: asking the judge asks a model: a viewer is not offered it (greyed out, the reason beside it),
    # and the server refuses the call anyway
    vera.p.wait_for_function("() => document.querySelector('#results-ask-judge')?.disabled", timeout=15000)
    vera.wait_text("#results-judge-msg", r"your role \(viewer\) cannot")
    from app_server import USERS, api_client
    from gradio_client.exceptions import AppError

    with pytest.raises(AppError, match=r"role \(viewer\) cannot"):
        api_client(login_server.url, auth=("vera", USERS["vera"][1])).predict([], "judge-model", "robust",
                                                                             api_name="/judge")
    vera.shot("viewer-results-only")
    tabs = [t.inner_text().strip() for t in vera.p.get_by_role("tab").all() if t.is_visible()]
    assert "Results" in tabs and not {"Probe", "Stress", "Batch", "Models"} & set(tabs), tabs
    for pg in (alice, bob, vera):
        assert not pg.errors, pg.errors


def test_an_unread_reply_says_why_and_a_chosen_judge_reads_it(server, browser, fake_openai):
    """Issue 21: the cell's detail says in words how a reply was read (here: not at all); on the Results tab a
    judge model chosen from the menu reads it, and the answer's detail shows the judge and its reply. Done on the
    projector's 1024 x 768 screen (the smaller one); each step is also shot at 1440 x 900."""
    def respond(body: dict) -> str:
        text = json.dumps(body["messages"])
        # (a reply no rule reads: "the latter one" is read since positions.py)
        return "B" if "Say which answer its reply gives" in text else \
            "Going by the picture, the one listed after the other it is."

    small = {"width": 1024, "height": 768}
    fake_openai.responder = respond
    pg = Page(browser.new_page(viewport=small), "judge")

    def shots(label: str) -> None:
        pg.shot(f"{label}-1024")
        pg.p.set_viewport_size(VIEW)
        pg.shot(f"{label}-1440")
        pg.p.set_viewport_size(small)

    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_endpoint(pg, fake_openai, "loop-vlm", "judge-model")  # each page its own endpoints (issue 23)
    pg.ask("CT\nMRI", "MRI")
    pg.tick("probe-models", "loop-vlm")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    pg.p.locator("#probe-table td.pu-cell").first.click()
    pg.wait_text("#probe-detail-text", r"How it was read.*no answer could be read")
    shots("unread-reply-detail")
    pg.tab("Results")
    pg.wait_text("#results-responses", "loop-vlm")
    pg.pick("results-judge", "judge-model")
    pg.p.locator("#results-ask-judge").click()
    pg.wait_text("#results-judge-msg", r"1 now has an answer from the judge", timeout_s=60)
    pg.wait_text("#results-responses", r"\bright\b")  # MRI (B) is the right answer: the judge's reading counts
    shots("judged-in-results")
    store = server.store()
    rid = max(int(x) for r in store.list_runs() for x in store.answers_frame(r.id)["response_id"])
    pg.fill("results-response-id", str(rid))
    pg.p.locator("#results-open").click()
    pg.wait_text("#results-detail", r"Judge judge-model read it as B")
    shots("judged-answer-detail")
    assert not pg.errors, pg.errors


def test_a_second_model_set_is_added_to_a_run_only_when_asked_and_resume_completes_it(fresh_server, browser,
                                                                                      fake_openai):
    """Issue 22: a blank run name and another model set never merge silently: the page says the run exists and
    what would be added, and waits for "add to run"; then it says "adds 2 models ... (N answers done)" before
    asking, a cancel leaves the run in the interrupted list with the whole plan counted, and Resume completes it
    (no error badges, the Runs table stays)."""
    fake_openai.latency_s = 2.5  # the slow model's 64 answers take ~20 s in waves: room for a Cancel on a busy machine
    pg = open_page(browser, fresh_server, "batch-extend")
    add_endpoint(pg, fake_openai, "slowish")
    pg.tab("Batch")
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-suites", "rotations")
    pg.tick("batch-models", "baseline/first")
    pg.p.locator("#batch-start").click()
    pg.wait_text("#batch-status", r"answers planned", timeout_s=120)
    run = "medvh_nota+rotations-seed0"
    first = {r["run"]: r for r in fresh_server.store().run_progress()}[run]
    assert first["complete"] and first["answered"] == first["planned"]
    n = first["answered"]

    pg.tick("batch-models", "baseline/first")  # untick: another model set, the run name still blank
    pg.fill("batch-run-name", "")
    pg.tick("batch-models", "baseline/random")
    pg.tick("batch-models", "slowish")
    pg.p.locator("#batch-start").click()
    said = pg.wait_text("#batch-status", r"already holds", timeout_s=30)
    assert f"already holds baseline/first ({n} answers done)" in said and "2 models (baseline/random, slowish)" in said
    pg.shot("asks-before-adding")
    time.sleep(1)
    assert {r["run"]: r for r in fresh_server.store().run_progress()}[run]["answered"] == n  # nothing was asked
    assert len(fake_openai.chat_requests) == 0

    pg.p.locator("#batch-extend input").check()
    pg.p.locator("#batch-start").click()
    pg.wait_text("#batch-status", rf"adds 2 models \(baseline/random, slowish\) to run '{re.escape(run)}' "
                                  rf"\({n} answers done\)", timeout_s=30)
    deadline = time.monotonic() + 60
    while len(fake_openai.chat_requests) < 8:
        assert time.monotonic() < deadline, "the slow model was never asked"
        time.sleep(0.1)
    pg.p.locator("#batch-cancel").click()
    pg.wait_text("#batch-cancel-note", r"Cancel sent to .*Resume finishes it")  # beside the button, not the status
    status = pg.wait_text("#batch-status", r"Cancelled.*: (at least )?\d+ answers left", timeout_s=60)
    assert "Resume" in status
    cancelled = {r["run"]: r for r in fresh_server.store().run_progress()}[run]
    # the whole plan (or, stopped while planning, none yet): never "complete" against the first batch's plan
    assert cancelled["planned"] in (3 * n, None) and not cancelled["complete"] and cancelled["answered"] < 3 * n
    pg.wait_text("#batch-runs", re.escape(run))
    pg.shot("cancelled")

    pg.pick("batch-resume-pick", run)  # the interrupted list offers it
    fake_openai.latency_s = 0  # the Cancel is done: the rest of the slow model's answers need no more seconds each
    pg.p.locator("#batch-resume").click()
    pg.wait_text("#batch-status", rf"{3 * n} answers planned; {cancelled['answered']} already done", timeout_s=120)
    pg.wait_text("#batch-runs", rf"{3 * n}")
    done = {r["run"]: r for r in fresh_server.store().run_progress()}[run]
    assert done["complete"] and done["answered"] == done["planned"] == 3 * n
    assert pg.p.locator("#batch-runs").inner_text().count(run) == 1
    assert pg.p.locator(".toast-body").count() == 0 and pg.p.locator("#batch-runs .error").count() == 0
    pg.shot("resumed-complete")
    assert not pg.errors, pg.errors


def test_results_never_show_a_superseded_selection(server, browser, monkeypatch):
    """Issue 22: a run added to the Results selection starts a long computation; removing it and pressing Show
    gives the right tables, and the older computation, finishing later, is dropped: the tables and the line above
    them keep naming only the run still selected."""
    import threading

    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.views import results as R

    store = server.store()
    preset = load_preset("medvh_nota")

    def make_runs() -> None:  # on a thread of its own: Playwright's loop runs on this one
        run_batch(store, [preset], ["baseline/first"], BatchOptions(run_name="run-a", progress=False))
        run_batch(store, [preset], ["baseline/last"], BatchOptions(run_name="run-b", progress=False))

    maker = threading.Thread(target=make_runs)
    maker.start()
    maker.join()
    slow_s = 8.0
    families = R.families_html

    def slow_when_both(df, *args, **kwargs):  # the two-run selection is the slow one, as a big run would be
        if len(df) and df["run"].nunique() > 1:
            time.sleep(slow_s)
        return families(df, *args, **kwargs)

    monkeypatch.setattr(R, "families_html", slow_when_both)
    pg = open_page(browser, server, "results-race")
    pg.tab("Results")
    pg.wait_text("#results-shown", r"Showing run run-b ·")  # the newest run, chosen when the tab opens
    box = pg.p.locator("#results-runs input").first
    box.click()
    box.fill("run-a")
    pg.p.locator("li[data-testid='dropdown-option']", has_text="run-a").first.click()
    box.blur()
    time.sleep(1.0)  # the two-run computation is under way
    pg.p.locator("#results-runs .token", has_text="run-a").locator(".token-remove").click()
    pg.p.locator("#results-show").click()
    pg.wait_text("#results-shown", r"Showing run run-b ·")
    started = time.monotonic()
    pg.shot("right-tables-first")
    time.sleep(slow_s + 3 - (time.monotonic() - started))  # past the moment the older computation lands
    overview = pg.p.locator("#results-overview").inner_text()
    assert "run-b" in overview and "run-a" not in overview
    assert "run-a" not in pg.p.locator("#results-shown").inner_text()
    assert "run-a" not in pg.p.locator("#results-responses").inner_text()
    pg.shot("still-right-after-the-old-computation")
    assert not pg.errors, pg.errors



def test_a_failed_model_keeps_its_column_after_a_rating_and_reaches_results(server, browser, monkeypatch):
    """Issue 22: rating a cell redraws the table from the store; the column of a model that could not be asked
    (no key) stays, and its failed calls are counted in Results with the reason in words."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    pg = open_page(browser, server, "failed-column")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/first")
    pg.tick("probe-models", "baseline/random")
    pg.p.get_by_text("another model by name").click()
    pg.fill("probe-adhoc", "gpt-4o")
    pg.p.locator("#probe-run").click()
    pg.table_done(3)
    assert [c["model"] for c in pg.cells()] == ["baseline/first", "baseline/random", "gpt-4o"]
    first = pg.p.locator("#probe-table td.pu-cell[data-model='baseline/first']").first
    first.locator("button[data-rating='correct']").click()
    pg.wait_text("#probe-table td.pu-cell", "you: correct")  # the table was drawn again from the store
    pg.table_done(3)
    by = {c["model"]: c for c in pg.cells()}
    assert set(by) == {"baseline/first", "baseline/random", "gpt-4o"}
    assert by["gpt-4o"]["state"] == "error" and "OPENAI_API_KEY" in by["gpt-4o"]["text"]
    pg.shot("failed-column-after-rating")
    pg.tab("Results")
    failed = pg.wait_text("#results-failed", "gpt-4o", timeout_s=30)
    assert "1 × could not be asked here: OPENAI_API_KEY is not set" in failed
    overview = pg.p.locator("#results-overview").inner_text()
    assert "gpt-4o" in overview
    pg.shot("failed-calls-in-results")
    assert not pg.errors, pg.errors


def test_the_detail_pane_and_previews_follow_the_run_and_the_image(server, browser):
    """Issue 22: the cell detail below the Probe table never outlives what it describes: a new run and a new
    image close it; a preview of the old image is cleared; models ticked after a run are marked "not yet run"."""
    pg = open_page(browser, server, "stale-detail")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    first_run = pg.run_name()
    pg.p.locator("#probe-table td.pu-cell").first.click()
    pg.wait_text("#probe-detail-text", "Prompt sent")
    pg.shot("detail-open")
    pg.p.locator("#probe-run").click()  # a new run: the old answer's detail goes
    # the new run's name first (the old table says "1 of 1 answers · finished" until the new run's first answer)
    pg.p.wait_for_function("(old) => document.querySelector('#probe-run-name textarea, #probe-run-name input')"
                           ".value !== old", arg=first_run, timeout=30000)
    pg.table_done(1)
    assert pg.run_name() != first_run
    pg.p.locator("#probe-detail").wait_for(state="hidden", timeout=10000)
    pg.tick("probe-models", "baseline/random")  # ticked after the run: not part of it
    pg.wait_text("#probe-ticks-note", "Not yet run: baseline/random")
    pg.p.locator("#probe-run").click()
    pg.table_done(2)
    pg.wait_text("#probe-ticks-note", "^$", timeout_s=10)  # asked now
    pg.p.locator("#probe-table td.pu-cell").first.click()
    pg.wait_text("#probe-detail-text", "Prompt sent")
    pg.gallery_pick("fundus_retina.png")  # a new image: the detail of an answer about the CT goes
    pg.wait_text("#probe-image-info", "PNG")
    pg.p.locator("#probe-detail").wait_for(state="hidden", timeout=10000)
    pg.wait_text("#probe-run-msg", "The table shows run .* asked before this image")
    pg.shot("new-image-detail-closed")
    pg.p.locator("#probe-preview").click()  # a preview of the fundus, then the CT again: the preview goes
    pg.wait_text("#probe-table .pu-progress", "Preview")
    pg.gallery_pick("ct_head_axial.png")
    pg.wait_text("#probe-table", "No answers yet")
    pg.shot("preview-cleared")
    assert not pg.errors, pg.errors


@pytest.fixture
def slow_clear_server(tmp_path, monkeypatch):
    """An app whose closing of the cell detail takes 4 s (as a light event can wait in a busy room), built after
    the delay is in place."""
    from probe_ui.app import detail

    plain = detail.cleared

    def slow() -> tuple:
        time.sleep(4)
        return plain()

    monkeypatch.setattr(detail, "cleared", slow)
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=50)


def test_an_answer_opened_as_a_run_ends_stays_open_when_the_page_is_slow(slow_clear_server, browser):
    """A new run closes the old answer's detail before its first table is drawn, in the run's own stream: in a
    busy room, a separate "close the detail" event of the Run click ran after the run's last table and closed
    the detail of an answer of the new run that the person had just opened (seen as a flaky empty detail)."""
    pg = open_page(browser, slow_clear_server, "detail-opened-stays")
    pg.ask("CT\nMRI", "CT")
    pg.tick("probe-models", "baseline/last")
    pg.p.locator("#probe-run").click()
    pg.table_done(1)
    pg.p.locator("#probe-table td.pu-cell").first.click()
    pg.wait_text("#probe-detail-text", "Prompt sent")
    time.sleep(5)  # past the moment a late "close the detail" of the Run click would land
    assert pg.p.locator("#probe-detail").is_visible()
    assert "Prompt sent" in pg.p.locator("#probe-detail-text").inner_text()
    pg.shot("detail-still-open")
    assert not pg.errors, pg.errors


def test_a_region_drawn_on_an_upload_is_occluded_for_two_models_and_saved_with_the_item(server, browser,
                                                                                      fake_openai, tmp_path):
    """Issue 45: draw the finding's region on an uploaded image with two clicks, cover it (and, as the control,
    the same area elsewhere) for two models: the one that reads the nodule flips only when it is covered, the one
    that always answers yes flips under neither; the item goes to a benchmark set with its region."""
    import base64
    import io

    import numpy as np
    import yaml
    from PIL import Image

    px = np.random.default_rng(0).integers(60, 120, size=(48, 64), dtype=np.uint8)
    px[12:20, 24:32] = 250  # the nodule
    Image.fromarray(px).save(tmp_path / "nodule.png")

    def sees_the_nodule(body):
        for m in body["messages"]:
            for part in m["content"] if isinstance(m["content"], list) else []:
                if part.get("type") == "image_url":
                    data = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                    return "Yes" if np.asarray(Image.open(io.BytesIO(data))).max() >= 250 else "No"
        return "No"

    fake_openai.responder = sees_the_nodule
    pg = open_page(browser, server, "region-occlude")
    add_endpoint(pg, fake_openai, "reader")
    pg.p.get_by_role("tab", name="Upload").click()
    pg.p.locator("#probe-upload input[type=file]").set_input_files(str(tmp_path / "nodule.png"))
    pg.wait_text("#probe-image-info", "64×48|64 × 48|64x48")
    pg.fill("probe-question", "Is there a nodule?")
    pg.tick("probe-kind", "yesno")
    pg.pick("probe-answer", "yes")
    pg.tick("probe-region-mode", "clicks on the image draw the region (two opposite corners)")
    pg.wait_text("#probe-region-msg", "Click one corner")
    before = pg.p.locator("#probe-image img").get_attribute("src")
    pg.click_pixel(20.5, 10.5, 64)
    pg.wait_text("#probe-region-msg", "opposite corner")
    # the first corner is drawn on a new picture: click the second on that one, once it has loaded (a click on the
    # picture being replaced is lost, as it would be for a user, who would click again)
    pg.p.wait_for_function("(b) => { const i = document.querySelector('#probe-image img');"
                           " return i && i.src !== b && i.complete && i.naturalWidth > 0; }", arg=before)
    pg.click_pixel(36.5, 22.5, 64)
    pg.wait_text("#probe-region-msg", "Region: 1 box")
    region = pg.p.locator("#probe-region textarea, #probe-region input").first.input_value()
    box = [int(v) for v in region.split(",")]
    assert all(abs(a - b) <= 1 for a, b in zip(box, [20, 10, 36, 22])), region
    pg.p.wait_for_function(f"() => document.querySelector('#probe-image img').src !== {before!r}")  # outlined
    assert "dots" not in pg.p.locator("#probe-steps").inner_text()  # the clicks drew the region, not dots
    pg.shot("region-drawn")
    pg.pick("probe-op", "cover the finding (its region)")
    pg.wait_text("#probe-op-doc", "region")
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps-words", "finding covered")
    pg.pick("probe-op", "cover the same area elsewhere (control)")
    pg.wait_text("#probe-op-doc", "control")
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps-words", "covered elsewhere")
    for m in ("baseline/first", "reader"):
        pg.tick("probe-models", m)
    pg.p.locator("#probe-run").click()
    pg.table_done(6)
    pg.shot("both-flips")
    rows = pg.p.locator("#probe-table .pu-label").all_inner_texts()
    assert rows == ["original", "finding covered (mean)", "same area covered elsewhere (mean)"], rows
    by = {(c["model"], rows[i // 2]): c["text"] for i, c in enumerate(pg.cells())}
    assert re.search(r"(?i)\byes", by[("reader", "original")]) and re.search(r"(?i)\bno", by[("reader", rows[1])])
    assert re.search(r"(?i)\byes", by[("reader", rows[2])])  # the control leaves the nodule in view
    assert all(re.search(r"(?i)\byes", by[("baseline/first", r)]) for r in rows)  # answers without looking
    pg.pick("probe-set-name", "nodules")
    pg.p.locator("#probe-save").click()
    pg.wait_text("#probe-save-msg", r"Saved item .* to benchmark set nodules")
    saved = yaml.safe_load((server.db.parent / "presets" / "nodules.yaml").read_text())["items"][-1]
    assert saved["region"] == [box] and saved["kind"] == "yesno"
    assert [c["steps"][0]["op"] for c in saved["perturbations"]] == ["occlude", "occlude_elsewhere"]
    pg.shot("saved")
    assert not pg.errors, pg.errors


def test_an_admin_sets_the_send_gate_and_reads_the_send_ledger_and_a_prober_sees_neither(login_server, browser,
                                                                                       monkeypatch):
    """Issue 47, in the browser: the Models tab's send-gate section is the admin's (a prober's page has none), says
    the policy in words, changes it for the server, and lists the ledger's rows and whether the chain is intact."""
    from probe_ui.send_gate.policy import POLICY_ENV, TRUSTED_ENV

    monkeypatch.setenv(POLICY_ENV, "")
    monkeypatch.setenv(TRUSTED_ENV, "")
    login_server.store().record_sends([{"user": "alice", "run": "chest-ct", "cell": "v/gpt/0", "provider": "openai",
                                        "host": "api.openai.com", "model": "gpt-4o", "images": ["c" * 64],
                                        "verdict": "blocked"}])
    root = signed_in(browser, login_server, "root", "send-gate-admin", viewport={"width": 1024, "height": 768})
    root.tab("Models")
    root.p.get_by_text("Send gate and send ledger (admins)").click()
    root.wait_text("#models-gate-policy", "Send gate:")
    root.tick("models-gate-mode", "redact")
    root.fill("models-gate-hosts", "gpu.hospital.example")
    root.p.locator("#models-gate-save").click()
    root.wait_text("#models-gate-policy", "cover burned-in identifying text")
    root.wait_text("#models-gate-policy", "gpu.hospital.example")
    root.p.locator("#models-ledger-reload").click()
    root.wait_text("#models-ledger", "blocked")
    assert "chest-ct" in root.p.locator("#models-ledger").inner_text()
    root.p.locator("#models-ledger-verify").click()
    root.wait_text("#models-ledger-check-msg", "intact: 1 row")
    root.shot("admin-gate")
    alice = signed_in(browser, login_server, "alice", "send-gate-prober")
    alice.tab("Models")
    alice.p.locator("#models-table").wait_for()
    assert not alice.p.get_by_text("Send gate and send ledger (admins)").is_visible()
    for pg in (root, alice):
        assert not pg.errors, pg.errors
