"""Markers by what a test needs, so that ``pytest -m "not slow and not browser"`` is the fast loop and pytest-xdist
keeps tests that share one resource on one worker (``--dist loadgroup``).

A test is marked here by the fixtures it uses (one rule, rather than a marker repeated in every file):
``browser`` (chromium), ``postgres`` (the session's PostgreSQL cluster), ``hf`` (a tiny local checkpoint: torch and
transformers). ``slow`` is set at the test: ``pytestmark = pytest.mark.slow`` in a file whose every test takes
seconds, ``@pytest.mark.slow`` on a single test (measured with ``--durations``; see docs/dev/testing.md); and here on
every ``hf`` and ``browser`` test, which need what they need whatever their file says.
"""

from __future__ import annotations

import pytest

BROWSER_FIXTURES = frozenset({"chromium", "browser"})
POSTGRES_FIXTURES = frozenset({"postgres_url", "postgres_db"})
HF_FIXTURES = frozenset({"tiny_llava", "tiny_llava_nosys", "tiny_gemma3", "tiny_family"})

#: xdist groups: every test of a group runs on one worker, one after the other. The PostgreSQL tests share one
#: cluster. Browser and hf tests are grouped by file: a file's browser tests share one chromium
#: (tests/shared_chromium.py) and a file's hf tests the tiny checkpoints its worker built, while two files may run at
#: once on two workers, each with its own chromium and app, or its own checkpoints (one group of all browser tests
#: and one of all hf tests, each one after the other, would be the longest chains of a parallel run). Measured on
#: 2026-11-26: with pytest 9.2 and pytest-xdist 3.8 the groups are not applied at all (xdist renames a grouped test
#: through ``item._nodeid``, which pytest 9.2 no longer reads), so every test is spread over the workers; nothing in
#: the suite depends on the groups for correctness (each worker starts its own cluster, chromium and checkpoints).
GROUPS = {"postgres": "postgres", "browser": "browser-{module}", "hf": "hf-{module}"}


def apply_markers(items: list[pytest.Item]) -> None:
    """Mark each collected test by the resources it needs (called from conftest's collection hook)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        module = item.module.__name__ if getattr(item, "module", None) else ""
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if names & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)
        if names & HF_FIXTURES:
            item.add_marker(pytest.mark.hf)
        marks = {m.name for m in item.iter_markers()}
        if marks & {"hf", "browser"}:
            item.add_marker(pytest.mark.slow)
        for mark, group in GROUPS.items():
            if mark in marks:
                item.add_marker(pytest.mark.xdist_group(group.format(module=module)))
                break

