"""Rebuild this run: the shell commands that make a stored run (and its report) again, in one place.

The report's Provenance section (:func:`reproduce_commands`) and an export's dataset card (:func:`card_command`)
both print them; they share :func:`batch_args`, so the two never disagree on which settings a replay needs (seed,
suites, prompt, samples, temperature, answer format, judge, concurrency). Commands name files, never local folders,
and models by their catalogue names, never keys: what they print may be shared.
"""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from probe_ui.items import source_name
from probe_ui.security import redact
from probe_ui.store.settings import RunSettings

if TYPE_CHECKING:
    from probe_ui.store import Run, Store


def public_path(path: Any) -> str:
    """A file named in the settings, as the report shows it: its name, never a local folder or a URL's secrets."""
    return str(redact.public_settings(str(path), paths=True, name="path"))


def db_arg(store: Store) -> str:
    """The ``--db`` argument of a replay: a SQLite store by its file name, a shared one as ``$DATABASE_URL``."""
    url = str(getattr(store, "url", ""))
    if url.startswith("sqlite:///"):
        return PurePath(url.removeprefix("sqlite:///")).name or "probe-ui.db"
    return "$DATABASE_URL"


def batch_args(s: RunSettings, run_name: str, seed: Any, presets: Sequence[str],
               db: str | None = None) -> list[str]:
    """``probe-ui batch`` with the arguments that replay a batch run's settings (unquoted; :func:`shlex.join`)."""
    args = ["probe-ui", "batch", *presets]
    for m in s.model_names:
        args += ["--model", m]
    args += ["--seed", str(seed)]
    for suite in s.suites:
        args += ["--suite", suite]
    if s.prompt:
        args += ["--prompt", s.prompt]
    if s.samples > 1:
        args += ["--samples", str(s.samples)]
    if s.temperature is not None:
        args += ["--temperature", _number(s.temperature)]
    if s.answer_format != "free":
        args += ["--answer-format", s.answer_format]
    if s.judge_name:
        args += ["--judge", s.judge_name, "--judge-mode", s.judge_mode]
    if s.concurrency:
        args += ["--concurrency", str(s.concurrency)]
    args += ["--run", run_name]
    if db is not None:
        args += ["--db", db]
    return args


def _number(x: float) -> str:
    """A recorded float as the user typed it (0.0 as 0, 0.7 as 0.7)."""
    return str(int(x)) if float(x).is_integer() else str(x)


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


def reproduce_commands(store: Store, run: Run, baseline: Run | None = None) -> list[tuple[str, str]]:
    """(what, shell command) pairs that rebuild the run and its report; file names only, never paths or keys."""
    s = run.config
    db = db_arg(store)
    out: list[tuple[str, str]] = []
    if s.kind == "live":
        items = ", ".join(map(str, s.items)) or "?"
        out.append(("answers", f"# a live probe from the app's Probe tab (items: {items}); no batch command "
                               "replays it"))
    elif s.imports:
        for e in s.imports:
            out.append(("import", shlex.join(import_args(e, run.name, db))))
    else:
        presets = [public_path(p.get("path") or p.get("name") or "?") for p in s.presets]
        out.append(("answers", shlex.join(batch_args(s, run.name, run.seed, presets or ["PRESET.yaml"], db))))
    rep = ["probe-ui", "report", "--db", db, "--run", run.name]
    if baseline is not None:
        rep += ["--baseline", baseline.name]
    out.append(("this report", shlex.join(rep + ["--out", "report.html"])))
    return out


def card_command(settings: RunSettings, run: Run) -> str | None:
    """The batch command an export's dataset card prints: a shipped preset as ``presets/NAME`` (when the file is
    still the one the run read), another by its file name; None when the run records no presets or no models
    (a live probe, an import)."""
    from probe_ui.files.resources import PRESETS_DIR

    presets = settings.presets
    if not presets or not settings.model_names:
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
