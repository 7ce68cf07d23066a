"""One headless chromium per test module, shared by its browser tests (the ``browser`` fixture of
tests/test_app_browser.py hands it to each test). Starting chromium and Playwright's driver costs seconds of CPU;
every test still gets pages of its own, each in a fresh browser context (its own cookies and storage), and the
contexts a test opened are closed when it ends, so no test sees another's session.

Only for files whose every test drives the browser: while Playwright's sync API is open its event loop counts as
running in the main thread, so ``asyncio.run`` there (a batch run in a fixture, ``probe-ui batch`` through
``main()``) fails with "cannot be called from a running event loop". tests/test_report.py, which runs batches in
fixtures between its two chromium checks, therefore launches its own chromium inside each of those two tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import require_chromium

# Every chromium the tests launch takes these. Chromium 15x draws its address-bar suggestions with two WebUI pages
# (chrome://omnibox-popup.top-chrome/), loaded for every new page, even headless, where no address bar is shown:
# about 0.9 s of CPU in a renderer of their own and 0.2-0.3 s in the browser process per page, against 4-5 s for
# the app itself (measured with Chromium 156 on two cores). Turning both features off saves that on every page.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"]


@pytest.fixture(scope="module")
def shared_chromium() -> Iterator[Any]:
    """A chromium launched once for the module that asks for it; closed after its last test."""
    path = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def close_contexts(browser: Any) -> None:
    """Close every context (and so every page) a test opened on the shared browser."""
    for context in list(browser.contexts):
        context.close()
