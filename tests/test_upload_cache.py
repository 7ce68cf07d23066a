"""Issue 24: patient headers do not stay in the upload cache. An API upload whose call failed validation, or a bare
`POST /gradio_api/upload` that no call used, left a DICOM with its full patient header in Gradio's cache until the
hourly cleanup. Now the uploads of a failed call are deleted when it fails, and an upload no call used is deleted
within a minute (probe_ui.app.files.watch_uploads); a preset uploaded on the Batch tab, used by its check, stays
until the batch reads it."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import httpx
import pydicom
import pytest
from app_server import api_client, serving
from gradio_client import handle_file
from helpers import require_chromium
from pydicom.data import get_testdata_file
from shared_chromium import ARGS

from probe_ui.app import files

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

PLANTED = b"Plantedsweep^Patient"


def planted_dicom(path: Path) -> Path:
    ds = pydicom.dcmread(get_testdata_file("CT_small.dcm", download=False))
    ds.PatientName = PLANTED.decode()
    buf = io.BytesIO()
    ds.save_as(buf)
    path.write_bytes(buf.getvalue())
    return path


def holding(cache: Path) -> list[Path]:
    return [p for p in cache.rglob("*") if p.is_file() and PLANTED in p.read_bytes()]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    """The app with its own upload cache, sweeping every 0.2 s for uploads unused for 1 s; one for the module's
    tests (each plants and looks for files of its own), stopped and its settings undone after the last."""
    root = tmp_path_factory.mktemp("upload-cache")
    cache = root / "gradio-cache"
    (root / "app").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADIO_TEMP_DIR", str(cache))
        mp.setattr(files, "UNUSED_UPLOAD_S", 1.0, raising=False)
        mp.setattr(files, "SWEEP_EVERY_S", 0.2, raising=False)
        for server in serving(root / "app", mp, demo=False, max_upload_mb=20):
            yield server, cache


def wait_until_gone(cache: Path, timeout_s: float = 30) -> list[Path]:
    deadline = time.monotonic() + timeout_s  # a guard against a hang: the sweep runs every 0.2 s
    while (left := holding(cache)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def test_a_bare_upload_no_call_uses_is_deleted_within_the_minute(app, tmp_path: Path) -> None:
    server, cache = app
    dcm = planted_dicom(tmp_path / "IM0001")
    with httpx.Client(trust_env=False) as http, dcm.open("rb") as f:
        r = http.post(server.url + "gradio_api/upload", files={"files": ("IM0001", f)})
    assert r.status_code == 200, r.text
    assert holding(cache), "the upload should be in the cache at first"
    assert wait_until_gone(cache) == []


def test_the_upload_of_a_call_that_fails_validation_is_deleted_at_once(app, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    server, cache = app
    monkeypatch.setattr(files, "UNUSED_UPLOAD_S", 3600.0, raising=False)  # the sweep cannot be what deletes it here
    from gradio_client.exceptions import AppError

    client = api_client(server.url)
    dcm = planted_dicom(tmp_path / "scan.dcm")
    with pytest.raises(AppError):
        client.predict(handle_file(str(dcm)), "not a steps table", api_name="/load_image")
    assert holding(cache) == []


@pytest.mark.browser
def test_a_preset_uploaded_on_the_batch_tab_stays_until_the_batch(app, tmp_path: Path) -> None:
    """The sweep must not take a file the page is still holding: the Batch tab's preset is checked when uploaded
    (a call that uses it), and Start, pressed after the sweep has run, still reads it."""
    server, cache = app
    from playwright.sync_api import sync_playwright

    chromium = require_chromium()
    preset = tmp_path / "mine.yaml"
    preset.write_text("name: mine\nitems:\n  - id: a\n    image: mr_small.png\n    question: Which?\n"
                      "    options: [CT, MRI]\n    answer: MRI\n", encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(server.url)
            page.get_by_role("tab", name="Batch", exact=True).click()
            page.locator("#batch-upload input[type=file]").set_input_files(str(preset))
            page.locator("#batch-status", has_text="1 item(s) ready").wait_for(timeout=30_000)
            shots = Path(os.environ.get("PROBE_UI_ARTIFACTS", Path(__file__).resolve().parent.parent
                                        / "test-artifacts")) / "batch-upload-kept"
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / "01-preset-checked.png"), full_page=True)
            time.sleep(3)  # well past the 1 s an unused upload is kept, with sweeps every 0.2 s
            assert [p for p in cache.rglob("mine.yaml")], "the checked preset was swept"
            page.locator("#batch-models label", has_text="baseline/first").click()
            page.locator("#batch-start").click()
            page.locator("#batch-status", has_text="answers planned").wait_for(timeout=120_000)
            assert "1 new" in page.locator("#batch-status").inner_text()
            page.screenshot(path=str(shots / "02-batch-done.png"), full_page=True)
        finally:
            browser.close()
