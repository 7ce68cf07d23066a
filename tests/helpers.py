"""Small builders shared by tests: images and presets written into a temporary folder; what a test needs from the
system (chromium, PostgreSQL, torch), skipped where missing but failed under CI; stopping the processes tests start."""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

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


def ctrl_c(proc: subprocess.Popen[Any], timeout: float = 30.0) -> str:
    """Press Ctrl+C in the app ``proc`` runs (its output piped as text) and wait for it to end; returns what it
    printed. Where it was held up and stopped by its own deadline (probe_ui.app.serve.stop_on_ctrl_c), the stacks it
    printed come back as a warning, so that what held it up shows in the test log."""
    import signal
    import warnings

    proc.send_signal(signal.SIGINT)
    proc.wait(timeout)
    out = proc.stdout.read() if proc.stdout is not None else ""
    if "Timeout (" in out:
        warnings.warn(f"the app was held up after Ctrl+C and stopped by its deadline:\n{out[-6000:]}", stacklevel=2)
    return out


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


# ---- searching artifacts for a secret ------------------------------------------------------------------------------

def key_pieces(key: str, n: int = 8) -> set[str]:
    """Every ``n``-character piece of a key (as sent: stripped, and whitespace-folded) holding a letter or digit:
    finding any of them in an artifact is a leak."""
    out: set[str] = set()
    for form in {key.strip(), " ".join(key.split())}:
        out |= {form[i:i + n] for i in range(len(form) - n + 1) if any(c.isalnum() for c in form[i:i + n])}
    return out


def artifact_texts(root: Path) -> dict[str, str]:
    """Every file under ``root`` as the text it holds, so that a key is found however the format encodes it:
    JSON and JSON lines, CSV cells, Parquet rows and every SQLite value (its WAL read through the database) as
    their decoded strings, JSON inside them decoded too; HTML and Markdown unescaped; anything else as raw bytes
    (UTF-8, then UTF-16). Decoded strings are joined as they are, never escaped again: a format's own escaping of a
    short fragment (a backslash written as two) is not taken for a longer piece of the key."""
    import csv
    import html
    import io
    import json
    import sqlite3

    def leaves(value: object, out: list[str]) -> None:
        if isinstance(value, str):
            out.append(value)
            if value[:1] in "[{\"":
                try:
                    leaves(json.loads(value), out)
                except ValueError:
                    pass
        elif isinstance(value, dict):
            for k, v in value.items():
                leaves(k, out)
                leaves(v, out)
        elif isinstance(value, (list, tuple)):
            for v in value:
                leaves(v, out)
        elif value is not None:
            out.append(str(value))

    def json_lines(text: str) -> str:
        out: list[str] = []
        for line in text.splitlines() or [text]:
            try:
                leaves(json.loads(line), out)
            except ValueError:
                out.append(line)
        return "\n".join(out)

    texts: dict[str, str] = {}
    for f in sorted(root.rglob("*")):
        if not f.is_file() or f.is_symlink() or f.name.endswith(("-wal", "-shm", "-journal")):
            continue
        name, data = str(f.relative_to(root)), f.read_bytes()
        text = data.decode("utf-8", "replace")
        out: list[str] = []
        if f.suffix in (".json", ".jsonl"):
            out.append(json_lines(text))
        elif f.suffix == ".csv":
            leaves([c for row in csv.reader(io.StringIO(text)) for c in row], out)
        elif f.suffix == ".parquet":
            import pyarrow.parquet as pq

            leaves(pq.read_table(f).to_pylist(), out)
        elif f.suffix in (".html", ".htm", ".md"):
            out.append(html.unescape(text))
        elif data.startswith(b"SQLite format 3"):
            con = sqlite3.connect(f"file:{f}?mode=ro", uri=True)
            try:
                tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                for t in tables:
                    for row in con.execute(f'SELECT * FROM "{t}"'):
                        leaves(list(row), out)
            finally:
                con.close()
        else:
            out += [text, data.decode("utf-16-le", "replace")]
        texts[name] = "\n".join(out)
    return texts


def leaked(texts: dict[str, str], *keys: str) -> list[str]:
    """``"<piece> in <where>"`` for every 8-character piece of a key found in the texts."""
    hits = []
    for key in keys:
        pieces = key_pieces(key)
        for where, text in texts.items():
            found = sorted(p for p in pieces if p in text)
            if found:
                hits.append(f"{found[0]!r} (of {len(found)} pieces) in {where}")
    return hits


class Recorder:
    """Stands in for asyncio.sleep: remembers the delays asked for."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@contextlib.contextmanager
def plugins_loaded(monkeypatch: pytest.MonkeyPatch, *files: Path) -> Iterator[None]:
    """``PROBE_UI_PLUGINS`` naming ``files`` (plugin files or folders) for the block; every plugin unloaded after
    it, so that no registry keeps a test's throwaway entries."""
    from probe_ui import registry

    monkeypatch.setenv(registry.PLUGINS_ENV, os.pathsep.join(str(f) for f in files))
    registry.forget_plugins()
    try:
        yield
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV, raising=False)
        registry.forget_plugins()


def store_replies(store: Any, preset: Path, replies: dict[str, list[str]], run: str = "r") -> list[int]:
    """A run ``run`` of ``preset``'s variants (no suites) whose answers are the given reply texts (``{model: [one
    reply per variant, in order]}``), read and stored as a batch stores them; returns the answers' ids in order."""
    from probe_ui.items import labels_for
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import expand
    from probe_ui.reading.answers import cache_row

    stored = store.ensure_run(run, 0, {})
    variants = expand(load_preset(preset), 0).variants
    store.add_variants(stored.id, variants)
    ids = []
    for model, texts in replies.items():
        for v, text in zip(variants, texts):
            labels = labels_for(v.kind, tuple(v.options))
            parse = cache_row(text, v.kind, labels, tuple(v.options), v.answer_label, question=v.question)
            ids.append(store.save_response({
                "run_id": stored.id, "variant_id": v.id, "model": model, "prompt": "default", "sample": 0,
                "request_hash": f"{v.id}{model}", "messages": [], "settings": {}, "raw_text": text, **parse,
                "latency_s": 0.1, "input_tokens": 1, "output_tokens": 1, "cost": 0.0, "error": None}))
    return ids


def busy_threads() -> str:
    """The stacks of this process's threads that are inside probe_ui's code: what an in-process app was doing when
    a browser test gave up waiting for it (so a timeout in CI says where the app was stuck, not only that it was)."""
    import sys
    import threading
    import traceback

    names = {t.ident: t.name for t in threading.enumerate()}
    out = []
    for ident, frame in sys._current_frames().items():
        stack = traceback.format_stack(frame)
        if any("probe_ui" in line for line in stack):
            out.append(f"--- thread {names.get(ident, ident)}:\n" + "".join(stack[-12:]))
    return "app threads at the time:\n" + "\n".join(out) if out else "no app thread was inside probe_ui"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``probe-ui ARGV`` in-process: (exit status, what it printed, what it wrote to stderr)."""
    from probe_ui.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def family_block(report: dict[str, Any], name: str, model: str | None = None) -> dict[str, Any]:
    """A metric family's block in a ``score --json`` report: of ``model``, or of the report's only model."""
    models = report["models"]
    chosen = model if model is not None else next(iter(models))
    assert model is not None or len(models) == 1, f"several models in the report: {sorted(models)}"
    return models[chosen]["paper"][name]  # type: ignore[no-any-return]
