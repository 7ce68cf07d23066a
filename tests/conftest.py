"""Shared pytest fixtures. Fixture code lives in its own module; this file only wires it in."""

import pytest

from fake_anthropic import fake_anthropic  # noqa: F401
from fake_openai import fake_openai  # noqa: F401  (tests/ is on sys.path: rootdir conftest, no __init__.py)
from app_server import app_server  # noqa: F401
from markers import apply_markers
from pg_server import postgres_db, postgres_url  # noqa: F401
from tiny_vlm import tiny_gemma3, tiny_llava, tiny_llava_nosys  # noqa: F401


def pytest_collection_modifyitems(config, items):  # noqa: ANN001 - pytest's hook signature
    apply_markers(items)


@pytest.fixture(autouse=True)
def _fresh_readiness():
    """Each test looks at servers afresh (probe_ui.readiness remembers a look for a few seconds): a port one test
    freed may serve, or not, in the next."""
    from probe_ui import readiness

    readiness.forget()
    yield
