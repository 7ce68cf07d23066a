"""Rebuild this run: the shell commands that make a stored run (and its report) again, in one place.

The report's Provenance section (:func:`reproduce_commands`) and an export's dataset card (:func:`card_command`)
both print them; they share :func:`batch_args`, so the two never disagree on which settings a replay needs (seed,
suites, prompt, samples, temperature, judge, concurrency). Commands name files, never local folders, and models by
their catalogue names, never keys: what they print may be shared.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from pathlib import Path, PurePath
from typing import Any, Mapping, Sequence

from probe_ui import redact


def source_name(source: str | None) -> str:
    """A preset (or imported file) by its file name only."""
    if not source:
        return ""
    return re.split(r"[\\/]", str(source).rstrip("/\\"))[-1]


def public_path(path: Any) -> str:
    """A file named in the settings, as the report shows it: its name, never a local folder or a URL's secrets."""
    return str(redact.public_settings(str(path), paths=True, name="path"))


def db_arg(store: Any) -> str:
    """The ``--db`` argument of a replay: a SQLite store by its file name, a shared one as ``$DATABASE_URL``."""
    url = str(getattr(store, "url", ""))
    if url.startswith("sqlite:///"):
        return PurePath(url.removeprefix("sqlite:///")).name or "probe-ui.db"
    return "$DATABASE_URL"


def model_names(settings: Mapping[str, Any]) -> list[str]:
    """The catalogue names of a run's models (stored as records, or as bare names by older runs)."""
    names = [m.get("name") if isinstance(m, dict) else m for m in settings.get("models") or []]
    return [str(n) for n in names if n]


def batch_args(settings: Mapping[str, Any], run_name: str, seed: Any, presets: Sequence[str],
               db: str | None = None) -> list[str]:
    """``probe-ui batch`` with the arguments that replay a batch run's settings (unquoted; :func:`shlex.join`)."""
    s = settings
    args = ["probe-ui", "batch", *presets]
    for m in model_names(s):
        args += ["--model", m]
    args += ["--seed", str(seed)]
    for suite in s.get("suites") or []:
        args += ["--suite", str(suite)]
    if s.get("prompt"):
        args += ["--prompt", str(s["prompt"])]
    if (s.get("samples") or 1) > 1:
        args += ["--samples", str(s["samples"])]
    if s.get("temperature") is not None:
        args += ["--temperature", str(s["temperature"])]
    judge = s.get("judge")
    if isinstance(judge, dict) and judge.get("name"):
        args += ["--judge", str(judge["name"]), "--judge-mode", str(judge.get("mode", "mediconfusion"))]
    if s.get("concurrency"):
        args += ["--concurrency", str(s["concurrency"])]
    args += ["--run", run_name]
    if db is not None:
        args += ["--db", db]
    return args


def import_args(entry: Mapping[str, Any], run_name: str, db: str) -> list[str]:
    """``probe-ui import`` with the arguments that replay one recorded import (unquoted)."""
    cmd = ["probe-ui", "import", str(entry.get("format", "?")), public_path(entry.get("path", "FILE"))]
    ds = entry.get("dataset")
    if isinstance(ds, dict) and ds.get("path"):
        cmd += ["--dataset", public_path(ds["path"])]
    for flag in ("model", "task", "split"):
        if entry.get(flag):
            cmd += [f"--{flag}", str(entry[flag])]
    return cmd + ["--run", run_name, "--db", db]


def reproduce_commands(store: Any, run: Any, baseline: Any | None = None) -> list[tuple[str, str]]:
    """(what, shell command) pairs that rebuild the run and its report; file names only, never paths or keys."""
    s = run.settings
    db = db_arg(store)
    out: list[tuple[str, str]] = []
    if s.get("kind") == "live":
        items = ", ".join(map(str, s.get("items") or [])) or "?"
        out.append(("answers", f"# a live probe from the app's Probe tab (items: {items}); no batch command "
                               "replays it"))
    elif s.get("imports"):
        for e in s["imports"]:
            out.append(("import", shlex.join(import_args(e, run.name, db))))
    else:
        presets = [public_path(p.get("path") or p.get("name") or "?") for p in s.get("presets") or []]
        out.append(("answers", shlex.join(batch_args(s, run.name, run.seed, presets or ["PRESET.yaml"], db))))
    rep = ["probe-ui", "report", "--db", db, "--run", run.name]
    if baseline is not None:
        rep += ["--baseline", baseline.name]
    out.append(("this report", shlex.join(rep + ["--out", "report.html"])))
    return out


def card_command(settings: Mapping[str, Any], run: Any) -> str | None:
    """The batch command an export's dataset card prints: a shipped preset as ``presets/NAME`` (when the file is
    still the one the run read), another by its file name; None when the run records no presets or no models
    (a live probe, an import)."""
    from probe_ui.resources import PRESETS_DIR

    presets = settings.get("presets") or []
    if not presets or not model_names(settings):
        return None
    args = []
    for p in presets:
        name = source_name(str(p.get("path") or p.get("name") or ""))
        bundled = (PRESETS_DIR / name).is_file() and same_file(PRESETS_DIR / name, p.get("sha256"))
        args.append(f"presets/{name}" if bundled else name)
    return shlex.join(batch_args(settings, run.name, run.seed, args))


def same_file(path: Path, sha: str | None) -> bool:
    """Whether ``path`` still holds the bytes whose SHA-256 a run recorded (True when none was recorded)."""
    if not sha:
        return True
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() == sha
    except OSError:
        return False
