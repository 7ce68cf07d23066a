"""The app in a real browser (Debian's chromium, headless, driven by Playwright): the flows a clinician follows.

Screenshots of every step go to ``test-artifacts/`` (or ``$PROBE_UI_ARTIFACTS``). Skipped when chromium is not
installed (``apt-get install chromium``), failed under CI=true (.ci/run installs it).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from pydicom.data import get_testdata_file

from app_server import serving, start_app
from helpers import require_chromium

ARTIFACTS = Path(os.environ.get("PROBE_UI_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

@pytest.fixture(autouse=True)
def chromium() -> str:
    return require_chromium()


@pytest.fixture
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path, monkeypatch):
    yield from serving(tmp_path, monkeypatch, demo=False, max_upload_mb=50)


class Page:
    """A few Gradio-aware helpers over a Playwright page, with numbered screenshots."""

    def __init__(self, page, name: str) -> None:
        self.p = page
        self.dir = ARTIFACTS / name
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in self.dir.glob("*.png"):
            old.unlink()
        self.n = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, label: str) -> None:
        self.n += 1
        self.p.screenshot(path=str(self.dir / f"{self.n:02d}-{label}.png"), full_page=True)

    def tab(self, name: str) -> None:
        self.p.get_by_role("tab", name=name, exact=True).click()

    def pick(self, elem_id: str, text: str) -> None:
        """Choose a dropdown option by typing it (works for custom values too)."""
        box = self.p.locator(f"#{elem_id} input").first
        box.click()
        box.fill(text)
        option = self.p.locator("ul.options li", has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))
        if option.count():
            option.first.click()
        else:
            box.press("Enter")

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
        raise AssertionError(f"{selector} never showed {pattern!r}; last text: {text[:500]!r}")

    def run_name(self) -> str:
        return self.p.locator("#probe-run-name textarea, #probe-run-name input").first.input_value()

    def toast(self, pattern: str, timeout_s: float = 20) -> str:
        return self.wait_text(".toast-body", pattern, timeout_s)


def add_loopback_endpoint(pg: Page, fake_openai, name: str = "loopback") -> None:
    pg.tab("Models")
    pg.fill("models-url", fake_openai.base_url)
    pg.fill("models-model", "gpt-4o")
    pg.fill("models-key", "sk-browser-planted-key")
    pg.fill("models-name", name)
    pg.p.locator("#models-add").click()
    pg.wait_text("#models-table", name)
    pg.tab("Probe")
    pg.p.locator("#probe-models label", has_text=name).wait_for(timeout=15000)


def test_main_flow(server, browser, fake_openai):
    """Upload a DICOM, rotate 180° and shuffle, two baselines + a loopback model, run, rate, save, find in
    Results."""
    pg = Page(browser.new_page(viewport={"width": 1400, "height": 1000}), "main-flow")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.shot("opened")

    pg.p.locator("#probe-upload input[type=file]").set_input_files(get_testdata_file("CT_small.dcm",
                                                                                     download=False))
    info = pg.wait_text("#probe-image-info", r"DICOM")
    assert "withheld" in info and "128×128" in info
    pg.shot("dicom-uploaded")

    pg.fill("probe-question", "Which imaging modality was used for this image?")
    pg.fill("probe-options", "CT\nMRI\nUltrasound")
    pg.pick("probe-answer", "CT")
    pg.code("probe-params", '{"angle": 180}')
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps", "rotate")
    pg.pick("probe-op", "shuffle")
    pg.wait_text("#probe-params", r"\{\}")
    pg.p.get_by_label("as a new variant (untick to chain onto the last one)").uncheck()
    pg.p.locator("#probe-add-step").click()
    pg.wait_text("#probe-steps", "shuffle")
    pg.p.locator("#probe-preview").click()
    prompts = pg.wait_text("#probe-prompts", r"rotate\(angle=180\)\+shuffle")
    assert "Which imaging modality was used for this image?" in prompts
    pg.shot("perturbed-preview")

    add_loopback_endpoint(pg, fake_openai)
    pg.tick("probe-models", "baseline/first")
    pg.tick("probe-models", "baseline/random")
    pg.tick("probe-models", "loopback")
    pg.shot("models-picked")
    pg.p.locator("#probe-run").click()
    pg.wait_text("#probe-cards", r"6 of 6 answers · finished")
    cards = pg.p.locator("#probe-cards .pu-card")
    assert cards.count() == 6
    states = [cards.nth(i).get_attribute("data-state") for i in range(6)]
    assert "waiting" not in states and "error" not in states
    models = {cards.nth(i).get_attribute("data-model") for i in range(6)}
    assert models == {"baseline/first", "baseline/random", "loopback"}
    conditions = {cards.nth(i).get_attribute("data-condition") for i in range(6)}
    assert conditions == {"original", "rotate(angle=180)+shuffle"}
    pg.shot("answers")
    run = pg.run_name()
    assert run.startswith("live-")

    first_id = cards.nth(0).get_attribute("data-response")
    pg.pick("probe-rate-pick", f"#{first_id} · {cards.nth(0).get_attribute('data-model')} · original")
    pg.p.locator("#probe-rating").get_by_label("incorrect", exact=True).check()
    pg.fill("probe-note", "the model ignored the window")
    pg.p.locator("#probe-rate").click()
    pg.wait_text("#probe-status", r"rated incorrect")
    pg.shot("rated")
    store = server.store()
    assert store.ratings_frame().to_dict("records") == [
        {"response_id": int(first_id), "rating": "incorrect", "note": "the model ignored the window"}]

    pg.pick("probe-set-name", "browser-set")
    pg.p.locator("#probe-save").click()
    pg.wait_text("#probe-status", r"Saved item .* to benchmark set browser-set")
    pg.shot("saved-to-set")
    assert (server.db.parent / "presets" / "browser-set.yaml").is_file()

    pg.tab("Results")
    pg.pick("results-runs", run)
    pg.p.locator("#results-show").click()
    pg.wait_text("#results-overview", "loopback")
    pg.wait_text("#results-responses", "rotate")
    pg.shot("results")
    assert not pg.errors, pg.errors


def test_a_slow_model_does_not_hold_up_the_others(server, browser, fake_openai):
    """One model takes 30 s: the baselines' cards fill at once and the page keeps answering clicks."""
    fake_openai.responder = lambda body: (time.sleep(30), "A")[1]
    pg = Page(browser.new_page(viewport={"width": 1400, "height": 1000}), "slow-model")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    add_loopback_endpoint(pg, fake_openai, "slow")
    pg.fill("probe-question", "Is this a CT image?")
    pg.p.locator("#probe-upload input[type=file]").set_input_files(get_testdata_file("CT_small.dcm",
                                                                                     download=False))
    pg.wait_text("#probe-image-info", "DICOM")
    pg.fill("probe-options", "yes\nno")
    pg.pick("probe-answer", "yes")
    for m in ("baseline/first", "baseline/random", "slow"):
        pg.tick("probe-models", m)
    started = time.monotonic()
    pg.p.locator("#probe-run").click()
    pg.wait_text("#probe-cards", r"2 of 3 answers", timeout_s=10)
    baselines_s = time.monotonic() - started
    pg.shot("baselines-answered")
    # while the slow model thinks, the page still does other work
    pg.p.locator("#probe-preview").click()
    pg.wait_text("#probe-prompts", "Is this a CT image?", timeout_s=10)
    preview_s = time.monotonic() - started
    assert pg.p.locator("#probe-cards .pu-card[data-state='waiting']").count() == 1
    pg.shot("page-responsive")
    pg.wait_text("#probe-cards", r"3 of 3 answers · finished", timeout_s=60)
    total_s = time.monotonic() - started
    pg.shot("slow-answered")
    assert total_s >= 29, (baselines_s, preview_s, total_s)  # a lower bound: the slow model's answer was awaited


def test_bad_uploads_show_an_error_and_lose_nothing(server, browser, tmp_path):
    pg = Page(browser.new_page(viewport={"width": 1400, "height": 1000}), "bad-uploads")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.fill("probe-question", "Which modality?")
    pg.fill("probe-options", "CT\nMRI")
    pg.tick("probe-models", "baseline/first")
    pg.p.locator("#probe-run").click()
    pg.wait_text("#probe-cards", r"1 of 1 answers · finished")
    from probe_ui.store import responses

    store = server.store()
    before = store.count(responses)

    corrupt = tmp_path / "scan.dcm"
    corrupt.write_bytes(b"DICM" + os.urandom(4000))
    pg.p.locator("#probe-upload input[type=file]").set_input_files(str(corrupt))
    pg.toast(r"Cannot use this file.*scan\.dcm")
    pg.shot("corrupt-upload")

    huge = tmp_path / "huge.png"
    with open(huge, "wb") as f:  # 200 MB, sparse: nothing is really written
        f.truncate(200 * 1024 * 1024)
    pg.p.locator("#probe-upload input[type=file]").set_input_files(str(huge))
    pg.toast(r"(?i)(exceed|too large|maximum|size)")
    pg.shot("huge-upload")

    first_run = pg.run_name()
    pg.p.locator("#probe-run").click()  # the page still works, and the earlier answer is still stored
    deadline = time.monotonic() + 30
    while pg.run_name() == first_run:
        assert time.monotonic() < deadline, "the second run never started"
        time.sleep(0.1)
    pg.wait_text("#probe-cards", r"1 of 1 answers · finished")
    assert store.count(responses) == before + 1


def test_demo_runs_with_no_keys_and_a_click_places_a_dot(tmp_path, browser, monkeypatch):
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.chdir(tmp_path)
    server = start_app(tmp_path, demo=True)
    try:
        pg = Page(browser.new_page(viewport={"width": 1400, "height": 1000}), "demo")
        outside: list[str] = []
        pg.p.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:")) else outside.append(r.url))
        pg.p.goto(server.url)
        pg.p.locator("#probe-run").wait_for()
        pg.wait_text("#probe-image-info", "PNG")
        pg.shot("demo-opened")
        pg.p.wait_for_function("() => { const i = document.querySelector('#probe-image img');"
                               " return i && i.complete && i.naturalWidth > 0; }")
        box = pg.p.locator("#probe-image img").bounding_box()
        pg.p.mouse.click(box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.5)
        steps = pg.wait_text("#probe-steps", "dots")
        assert "given" in steps
        pg.p.locator("#probe-run").click()
        pg.wait_text("#probe-cards", r"4 of 4 answers · finished")
        pg.shot("demo-answered")
        assert outside == []  # the page loads nothing from outside this machine (no fonts, no CDN)
        cards = pg.p.locator("#probe-cards .pu-card")
        assert {cards.nth(i).get_attribute("data-model") for i in range(4)} == {"baseline/random", "baseline/first"}
        store = server.store()
        variant = store.answers_frame(store.get_run().id, full=True).query("condition != 'original'").iloc[0]
        row = store.get_response(int(variant.response_id))
        point = row["provenance"][-1]["params"]["points"][0]
        assert 100 <= point[0] <= 156 and 230 <= point[1] <= 282  # a quarter across, half down the 512² image
    finally:
        server.app.close()


def test_stress_and_batch_tabs(server, browser):
    """A suite over a preset as a coloured matrix; a batch with its progress and its run in the list."""
    pg = Page(browser.new_page(viewport={"width": 1400, "height": 1000}), "stress-batch")
    pg.p.goto(server.url)
    pg.p.locator("#probe-run").wait_for()
    pg.tab("Stress")
    pg.p.locator("#stress-source").get_by_label("a preset").check()
    pg.pick("stress-preset", "mediconfusion_pairs (bundled)")
    pg.pick("stress-suite", "circular")
    pg.tick("stress-models", "baseline/first")
    pg.tick("stress-models", "baseline/random")
    pg.p.locator("#stress-run").click()
    pg.p.locator("#stress-matrix table").wait_for(timeout=60000)
    cells = pg.p.locator("#stress-matrix td.stress-cell")
    assert cells.count() == 64  # 16 items x (original + one cyclic shift) x 2 models
    # baseline/first always answers A: right on every original whose answer is A, and broken by the shift there
    first = "#stress-matrix td.stress-cell[data-model='baseline/first']"
    right_originals = pg.p.locator(f"{first}.stress-ok[data-condition='original']").count()
    assert right_originals > 0
    assert pg.p.locator(f"{first}.stress-broke").count() == right_originals
    pg.shot("stress-matrix")

    pg.tab("Batch")
    pg.tick("batch-presets", "medvh_nota (bundled)")
    pg.tick("batch-models", "baseline/first")
    pg.tick("batch-suites", "rotations")
    pg.p.locator("#batch-start").click()
    status = pg.wait_text("#batch-status", r"answers planned", timeout_s=120)
    assert "0 errors" in status
    pg.wait_text("#batch-runs", r"medvh_nota\+rotations-seed0")
    pg.shot("batch-done")
    assert not pg.errors, pg.errors
