"""Shared pytest fixtures. Fixture code lives in its own module; this file only wires it in."""

import os
import tempfile
from pathlib import Path

import pytest
from app_server import app_server  # noqa: F401
from fake_anthropic import fake_anthropic  # noqa: F401
from fake_anthropic_batch import fake_anthropic_batch  # noqa: F401
from fake_openai import fake_openai  # noqa: F401  (tests/ is on sys.path: rootdir conftest, no __init__.py)
from fake_openai_batch import fake_openai_batch  # noqa: F401
from ledger import record_collected, record_ran
from markers import apply_markers
from pg_server import postgres_db, postgres_url  # noqa: F401
from shared_chromium import shared_chromium  # noqa: F401
from tiny_vlm import tiny_gemma3, tiny_llava, tiny_llava_nosys  # noqa: F401

# Under pytest-xdist each worker's apps get a Gradio cache of their own: one worker's app clearing its cache (a
# test of what an upload leaves behind, Gradio's delete_cache) must not delete the pictures another worker's app is
# serving at that moment (403 on /gradio_api/file=...).
if os.environ.get("PYTEST_XDIST_WORKER") and "GRADIO_TEMP_DIR" not in os.environ:
    os.environ["GRADIO_TEMP_DIR"] = str(Path(tempfile.gettempdir()) / f"gradio-{os.environ['PYTEST_XDIST_WORKER']}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):  # noqa: ANN001 - pytest's hook signature
    """First: pytest-xdist's own hook reads the ``xdist_group`` marks in this same hook (--dist loadgroup), and
    ``-m`` deselects by the marks, so both must see the marks applied here. (pytest-xdist 3.8 cannot rename tests
    under pytest 9.2, whose ids are no longer ``_nodeid``: there the groups are ignored and every test is spread
    over the workers; docs/dev/testing.md.)"""
    record_collected(items)  # before -m deselects any (tests/ledger.py: CI checks every test ran exactly once)
    apply_markers(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):  # noqa: ANN001 - pytest's hook signature
    """Runs where the test runs (an xdist worker, not the controller): the ledger's line is written once."""
    result = yield
    record_ran(item)
    return result


@pytest.fixture(autouse=True)
def _fresh_readiness():
    """Each test looks at servers afresh (probe_ui.providers.readiness remembers a look for a few seconds): a port one
    test freed may serve, or not, in the next."""
    from probe_ui.providers import readiness

    readiness.forget()
    yield


@pytest.fixture(autouse=True)
def _fresh_parser():
    """Each test's first ``main()`` builds the command line afresh (probe_ui.cli.entry keeps it between calls): a
    test that replaces a command's function (monkeypatch) is run with its replacement."""
    from probe_ui.cli.entry import forget_parser

    forget_parser()
    yield
