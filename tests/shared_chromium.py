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

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


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
