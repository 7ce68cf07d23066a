"""Small builders shared by tests: images and presets written into a temporary folder; what a test needs from the
system (chromium, PostgreSQL, torch), skipped where missing but failed under CI; stopping the processes tests start."""

from __future__ import annotations

import importlib
import os
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import yaml
from PIL import Image

#: CI=true (set by .ci/run, as by most CI services): every system dependency is installed there, so a test that
#: would skip for want of one fails instead, and a broken CI set-up cannot pass by skipping
CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
CHROMIUM = os.environ.get("PROBE_UI_CHROMIUM", "/usr/bin/chromium")


def require(available: bool, what: str, how: str) -> None:
    """Skip the calling test (or module) when ``what`` is missing; fail it under ``CI=true``."""
    if available:
        return
    message = f"{what} is not available here ({how})"
    if CI:
        pytest.fail(f"{message}; CI=true, where .ci/run installs it", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def require_module(name: str, how: str) -> ModuleType:
    """Import an optional package (torch, transformers) or skip / fail as :func:`require` does."""
    try:
        return importlib.import_module(name)
    except ImportError:
        require(False, f"the Python package {name}", how)
        raise  # not reached: require skips or fails


def require_local_models() -> None:
    """torch and transformers, which the ``hf`` provider's tests load a tiny model with (the README's local extra)."""
    how = 'pip install torch --index-url https://download.pytorch.org/whl/cpu && pip install -e ".[local]"'
    for name in ("torch", "transformers"):
        require_module(name, how)


def require_chromium() -> str:
    """The chromium executable the browser tests drive (``PROBE_UI_CHROMIUM``, default Debian's)."""
    require(Path(CHROMIUM).exists(), f"chromium ({CHROMIUM})", "apt-get install chromium")
    return CHROMIUM


def stop(proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """End a process a test started: SIGTERM, then SIGKILL if it is still there after ``timeout`` seconds. Call it
    in a ``finally``, so that nothing a test starts outlives it, whatever the test's outcome."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def wait_for_page(url: str, proc: subprocess.Popen[Any], timeout: float = 120.0) -> bytes:
    """Poll ``url`` until it answers 200 and return the page; fail if the process ends first or ``timeout``
    passes (a guard against a hang, not a limit on speed)."""
    import time
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout is not None else ""
            raise AssertionError(f"the server ended ({proc.returncode}) before its page answered: {out!r}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return r.read()
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.3)


def write_png(path: Path, size: tuple[int, int] = (48, 32), seed: int = 0, mode: str = "L") -> Path:
    rng = np.random.default_rng(seed)
    shape = (size[1], size[0]) if mode == "L" else (size[1], size[0], 3)
    Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode=mode).save(path)
    return path


def write_preset(path: Path, items: list[dict[str, Any]], **top: Any) -> Path:
    path.write_text(yaml.safe_dump({"items": items, **top}, sort_keys=False), encoding="utf-8")
    return path


def choice_item(i: int, image: str, answer: str = "A", n: int = 2, **extra: Any) -> dict[str, Any]:
    opts = [f"finding {i}-{k}" for k in range(n)]
    return {"id": f"q{i}", "image": image, "question": f"What does image {i} show?", "options": opts,
            "answer": answer, **extra}
