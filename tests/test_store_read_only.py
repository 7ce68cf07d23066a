"""A store that cannot be written (issue 14, F13): read-only filesystem, folder or file. ``score``, ``export``,
``report`` and ``ratings export`` used to fail opening it (``attempt to write a readonly database``: the WAL switch
and the table check write); now they open it read-only and give the same figures as on a writable copy.

Root passes permission bits, so the folder/file chmod is exercised for real by running the CLI as ``nobody``
(``setpriv``) when the tests run as root, and directly otherwise; the read-only opening itself is also checked
in-process, where SQLite (``mode=ro``) and the store refuse every write."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import choice_item, require_module, write_png, write_preset

import probe_ui.store.opening as store_mod
from probe_ui.cli import main
from probe_ui.scoring import score_run
from probe_ui.store import Store, StoreError, migrations, read_only_sqlite_url, responses

FIXTURE = Path(__file__).parent / "data" / "stores" / "v1-04c68d0"
ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534


def digest(folder: Path, wal: bool = True) -> dict[str, str]:
    """Every file under ``folder`` and its sha256: what 'nothing was written' is checked against. ``wal=False``
    leaves out SQLite's -wal / -shm files, which an in-process writable engine of the same test may still hold."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and (wal or not p.name.endswith(("-wal", "-shm")))}


@pytest.fixture
def world_dir() -> Iterator[Path]:
    """A folder another user (``nobody``) can enter: pytest's tmp_path is private to root."""
    d = Path(tempfile.mkdtemp(prefix="probe-ui-ro-"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        for p in [d, *d.rglob("*")]:
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(d, ignore_errors=True)


def fresh_store(folder: Path, fake_openai: Any, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> Path:
    """A store made now by a small batch against the loopback server, with a rating; closed cleanly."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real")
    src = folder / "preset"
    src.mkdir()
    for i in range(4):
        write_png(src / f"im{i}.png", seed=i)
    p = write_preset(src / "p.yaml", [choice_item(i, f"im{i}.png", answer="AB"[i % 2]) for i in range(4)],
                     perturbations=[{"name": "rot90", "steps": [{"op": "rotate", "angle": 90}]}])
    fake_openai.answer = "The correct answer is (B)."
    db = folder / "data" / "probe-ui.db"
    done = subprocess.run([sys.executable, "-m", "probe_ui", "batch", str(p), "-m", "openai/fake-vlm", "-m",
                           "baseline/first", "--db", str(db), "--run", "fresh", "--no-progress"],
                          capture_output=True, text=True, timeout=300, env=reader_env(folder))
    assert done.returncode == 0, done.stderr[-2000:]
    store = Store(db)
    store.rate_response(1, "correct", "fine", rater="dr a")
    store.close()  # the last connection: the write-ahead log goes into the file and is removed
    assert not (db.parent / "probe-ui.db-wal").exists()
    return db


def reader_env(folder: Path) -> dict[str, str]:
    """The environment of a probe-ui subprocess: this worktree's code first, matplotlib's cache in ``folder``."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (str(ROOT), os.environ.get("PYTHONPATH", "")) if x),
                MPLCONFIGDIR=str(folder / "mpl"), HOME=str(folder))


def upgraded_fixture(folder: Path) -> Path:
    """The store written by an older release (tests/data/stores), upgraded once by a writable open."""
    shutil.copytree(FIXTURE, folder / "old", ignore=shutil.ignore_patterns("*.sql", "*.json", "*.md", "*.yaml"))
    db = folder / "old" / "probe-ui.db"
    store = Store(db)
    assert store.upgraded is not None
    store.close()
    for backup in db.parent.glob("*backup*"):
        backup.unlink()
    return db


def lock_down(db: Path) -> None:
    """No write permission on the store's folder, images and file (0o555 / 0o444)."""
    for p in sorted(db.parent.rglob("*"), reverse=True):
        p.chmod(0o555 if p.is_dir() else 0o444)
    db.parent.chmod(0o555)


def read_commands(db: Path, run: str, out: Path) -> list[list[str]]:
    return [["score", "--db", str(db), "--run", run, "--json"],
            ["score", "--db", str(db), "--run", run, "--json", "--parser", "legacy"],
            ["export", "--db", str(db), "--run", run, "--format", "csv", "--out", str(out / "export")],
            ["report", "--db", str(db), "--run", run, "--out", str(out / "report.html")],
            ["ratings", "export", "--db", str(db), "--run", run, "--out", str(out / "ratings.csv")]]


def run_as_reader(argv: list[str], out: Path) -> subprocess.CompletedProcess[str]:
    """``probe-ui ARGV`` in a fresh process that cannot write the locked-down store: as ``nobody`` under root."""
    env = reader_env(out)
    cmd = [sys.executable, "-m", "probe_ui", *argv]
    if os.geteuid() == 0:
        cmd = [shutil.which("setpriv") or "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
               *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, cwd=str(out))


def comparable(argv: list[str], out: Path, stdout: str) -> Any:
    """What a read command produced, fit to compare between a writable and a read-only store."""
    if argv[0] == "score":
        return json.loads(stdout)
    if argv[0] == "export":
        return (out / "export" / "data.csv").read_text() if (out / "export" / "data.csv").exists() else \
            sorted(p.name for p in (out / "export").rglob("*"))
    if argv[0] == "ratings":
        return (out / "ratings.csv").read_text()
    return (out / "report.html").stat().st_size > 0


@pytest.mark.parametrize("which", ["fresh", "older-release-upgraded"])
@pytest.mark.slow
def test_read_commands_on_a_store_nobody_may_write_give_the_same_figures(
        which: str, world_dir: Path, fake_openai: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a chmod cannot make the store unwritable for this process")
    if which == "fresh":
        db, run = fresh_store(world_dir, fake_openai, monkeypatch, capsys), "fresh"
    else:
        db, run = upgraded_fixture(world_dir), "fixture-batch"
    writable = world_dir / "writable"
    shutil.copytree(db.parent, writable)
    lock_down(db)
    before = digest(db.parent)
    for i, argv in enumerate(read_commands(db, run, world_dir)):
        mine = world_dir / f"out-{i}"
        mine.mkdir(mode=0o777)
        mine.chmod(0o777)
        done = run_as_reader(read_commands(db, run, mine)[i], mine)
        assert done.returncode == 0, f"{argv[0]}: {done.stderr[-2000:]}"
        ref = world_dir / f"ref-{i}"
        ref.mkdir()
        assert main(read_commands(writable / db.name, run, ref)[i]) == 0
        want = capsys.readouterr().out
        assert comparable(argv, mine, done.stdout) == comparable(argv, ref, want), argv[0]
    assert digest(db.parent) == before  # nothing written, not even -wal / -shm files
    assert not list(db.parent.glob("*-wal")) and not list(db.parent.glob("*-shm"))


@pytest.fixture
def unwritable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend this process may write nothing (as on a read-only filesystem), whoever runs the tests."""
    monkeypatch.setattr(store_mod, "_can_write", lambda _path: False)


def test_a_read_only_store_reads_and_refuses_every_write(tmp_path: Path, fake_openai: Any,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = fresh_store(tmp_path, fake_openai, monkeypatch, capsys)
    want = score_run(Store(db), "fresh")
    before = digest(db.parent, wal=False)
    ro = Store(db, read_only=True)
    assert ro.read_only and "mode=ro" in str(ro.engine.url)
    assert score_run(ro, "fresh") == want
    assert len(ro.answers_frame(ro.get_run("fresh").id)) == ro.count(responses)
    ro.cache_parses([{"id": 1, "parsed": "A", "method": "x", "invalid": False, "refusal": False, "correct": True,
                      "parse_version": "x"}])  # a no-op
    for write in (lambda: ro.ensure_run("new", 0, {}), lambda: ro.rate_response(1, "incorrect"),
                  lambda: ro.touch_run(1), lambda: ro.record_item_error(1, "s", "i", "m")):
        with pytest.raises(StoreError, match=r"opened read-only: cannot (insert|update|delete)"):
            write()
    raw = ro.engine.raw_connection()  # below the store's own check: SQLite itself refuses (mode=ro)
    try:
        with pytest.raises(sqlite3.OperationalError) as refused:
            raw.cursor().execute("DELETE FROM ratings")
        assert refused.value.sqlite_errorcode == sqlite3.SQLITE_READONLY  # the code, not SQLite's wording
    finally:
        raw.close()
    ro.close()
    assert digest(db.parent, wal=False) == before


def test_an_unwritable_folder_opens_the_file_immutable(tmp_path: Path, fake_openai: Any,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = fresh_store(tmp_path, fake_openai, monkeypatch, capsys)
    assert "immutable" not in read_only_sqlite_url(db)  # the folder can be written: WAL files may be made
    monkeypatch.setattr(store_mod, "_can_write", lambda _path: False)
    url = read_only_sqlite_url(db)
    assert url.startswith("sqlite:///file:") and "mode=ro" in url and "immutable=1" in url and "uri=true" in url
    auto = Store(db, read_only="auto")
    assert auto.read_only and "immutable=1" in str(auto.engine.url)
    assert auto.get_run("fresh").name == "fresh"
    auto.close()
    assert not (db.parent / "probe-ui.db-wal").exists() and not (db.parent / "probe-ui.db-shm").exists()


def test_a_write_ahead_log_with_changes_is_read_not_ignored(tmp_path: Path) -> None:
    """A store whose -wal still holds committed answers (a batch killed, or one still running) must not be opened
    immutable: SQLite would read the main file alone and miss them."""
    db = tmp_path / "w.db"
    writer = Store(db)
    writer.ensure_run("r", 0, {})
    hold = sqlite3.connect(db)  # a second connection keeps the WAL from being checkpointed away on close
    hold.execute("PRAGMA wal_autocheckpoint=0")
    writer.engine.dispose()
    w2 = Store(db)
    with w2.engine.begin() as c:
        c.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
    w2.ensure_run("in-the-wal", 0, {})
    assert (tmp_path / "w.db-wal").stat().st_size > 0
    orig = store_mod._can_write
    try:
        store_mod._can_write = lambda p: False if Path(p) == tmp_path else orig(p)
        url = read_only_sqlite_url(db)
        assert "immutable" not in url
        ro = Store(db, read_only=True)
        assert [r.name for r in ro.list_runs()] == ["r", "in-the-wal"]
        ro.close()
    finally:
        store_mod._can_write = orig
        hold.close()
        w2.close()


def test_cli_read_commands_open_an_unwritable_store_read_only(tmp_path: Path, fake_openai: Any, unwritable: None,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """In-process, whoever runs the tests: a store this process cannot write is opened read-only by the read
    commands (and gives what a writable copy gives); a write command still opens it writable."""
    monkeypatch.setattr(store_mod, "_can_write", lambda _path: True)
    db = fresh_store(tmp_path, fake_openai, monkeypatch, capsys)
    want = json.loads((main(["score", "--db", str(db), "--run", "fresh", "--json"]), capsys.readouterr().out)[1])
    monkeypatch.setattr(store_mod, "_can_write", lambda _path: False)
    opened: list[Store] = []
    real_init = Store.__init__

    def spy(self: Store, *a: Any, **kw: Any) -> None:
        real_init(self, *a, **kw)
        opened.append(self)

    monkeypatch.setattr(Store, "__init__", spy)
    before = digest(db.parent, wal=False)
    for argv in read_commands(db, "fresh", tmp_path):
        assert main(argv) == 0, capsys.readouterr().err
        assert opened[-1].read_only, argv
        if argv[0] == "score" and "legacy" not in argv:
            assert json.loads(capsys.readouterr().out) == want
        capsys.readouterr()
    assert digest(db.parent, wal=False) == before


def test_an_older_store_opened_read_only_says_how_to_upgrade_it(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "old", ignore=shutil.ignore_patterns("*.sql", "*.json", "*.md", "*.yaml"))
    db = tmp_path / "old" / "probe-ui.db"
    before = digest(db.parent, wal=False)
    with pytest.raises(StoreError) as caught:
        Store(db, read_only=True)
    text = str(caught.value)
    assert "\n" not in text and str(db) in text
    assert f"schema version 0, older than this probe-ui's {migrations.LATEST}" in text
    assert "needs an upgrade" in text and "probe-ui batch" in text and "writable" in text
    assert {k: v for k, v in digest(db.parent).items() if k in before} == before  # no backup, no upgrade
    assert not list(db.parent.glob("*backup*"))


def test_an_older_store_nobody_may_write_fails_in_one_line_through_the_cli(
        tmp_path: Path, unwritable: None, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FIXTURE, tmp_path / "old", ignore=shutil.ignore_patterns("*.sql", "*.json", "*.md", "*.yaml"))
    db = tmp_path / "old" / "probe-ui.db"
    assert main(["score", "--db", str(db)]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and "needs an upgrade" in err[0] and str(db) in err[0]


def test_read_only_needs_an_existing_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no store at .*missing.db"):
        Store(tmp_path / "missing.db", read_only=True)
    assert not (tmp_path / "missing.db").exists()
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    with pytest.raises(StoreError, match="holds no probe-ui store"):
        Store(empty, read_only=True)


def test_a_read_only_store_runs_no_batch(tmp_path: Path) -> None:
    Store(tmp_path / "x.db").close()
    with pytest.raises(StoreError, match="read-only"):
        with Store(tmp_path / "x.db", read_only=True).run_lock("r"):
            pass


def test_postgres_read_only_store_reads_and_refuses_writes(postgres_db: str) -> None:
    psycopg = require_module("psycopg", 'pip install -e ".[dev]"')
    Store(postgres_db).ensure_run("r", 0, {})
    ro = Store(postgres_db, read_only=True)
    try:
        assert [r.name for r in ro.list_runs()] == ["r"]
        with pytest.raises(StoreError, match="opened read-only"):
            ro.ensure_run("s", 0, {})
        raw = ro.engine.raw_connection()  # below the store's own check: the server refuses (read-only transactions)
        try:
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):  # SQLSTATE 25006, not the server's wording
                raw.cursor().execute("DELETE FROM runs")
        finally:
            raw.close()
    finally:
        ro.close()


READ_COMMANDS = [["score"], ["score", "--json"], ["export", "--format", "csv", "--out", "exported"],
                 ["report", "--out", "report.html"], ["ratings", "export"], ["ratings", "export", "--out", "r.csv"]]


@pytest.mark.parametrize("argv", READ_COMMANDS, ids=lambda a: "-".join(a[:2]))
@pytest.mark.parametrize("db", ["typo.db", "nonexistent/dir/x.db", "sqlite:///typo.db", None],
                         ids=["typo", "missing-folder", "sqlite-url", "default-from-another-folder"])
def test_read_commands_never_create_a_store(argv: list[str], db: str | None, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped --db, or a read command run from another folder, says where it looked in one line (the path as
    typed) and exits 1, leaving no file and no folder behind (issue 22)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PROBE_UI_DB", raising=False)
    shown = db or "probe-ui-data/probe-ui.db"
    assert main([*argv, *(["--db", db] if db else [])]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert err == [f"error: no store at {shown}: stores are per folder; pass --db or set PROBE_UI_DB"]
    assert list(tmp_path.iterdir()) == []


def test_a_read_command_leaves_a_file_that_is_not_a_store_as_it_was(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """An empty (or foreign) database file is not filled with a store's tables by a command that only reads."""
    empty = tmp_path / "notes.db"
    sqlite3.connect(empty).close()
    before = digest(tmp_path)
    assert main(["score", "--db", str(empty)]) == 1
    assert f"no store at {empty}" in capsys.readouterr().err
    assert digest(tmp_path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]
