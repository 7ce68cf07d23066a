"""Expensive read-only test data built once per pytest run, not once per xdist worker.

A module-scoped fixture is built by every worker that runs one of its module's tests, and with pytest-xdist's groups
not applied (docs/dev/testing.md, "Parallel runs") the tests of a module are spread over the workers: a fixture of
20-30 s of CPU was built twice in CI. :func:`built_once` builds into a folder under the run's temporary root, which
all the workers of one run share (``pytest-N/``, above each worker's ``popen-gwK/``), behind a file lock: the first
worker builds it, the others wait and read it. Each test still works on its own copy or its own objects (the
fixtures copy the folder into their own temporary folder, or load what was saved), so tests stay independent.
Without xdist the folder is under the session's own temporary root.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder ``name`` as ``build(folder)`` left it, built by the first worker of this run to ask (read it, or
    copy it before changing anything)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-N/, shared by this run's workers (each has pytest-N/popen-gwK/)
    folder = root / f"built-once-{name}"
    with FileLock(str(folder) + ".lock"):
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            build(folder)
            (folder / ".built").touch()
    return folder
