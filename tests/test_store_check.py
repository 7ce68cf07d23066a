"""Issue 24: stores are checked on open, and the database's own refusals are the user's situation, not a bug.

A planted trigger rewrote every stored answer to "HACKED" and `score` reported what it wrote; another aborted every
insert ("a bug in probe-ui"); a view in place of a table, a schema_version of 'abc' and a full disk were each
"a bug in probe-ui". Now a trigger or rule probe-ui did not create is refused, naming it (--trust-store opens the
store anyway, with a warning that `score` repeats), a view where a table belongs is refused, a bad stamp names the
store and what to do, a full disk names the store and the space left, and all of them on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from helpers import choice_item, write_png, write_preset
from sqlalchemy import event

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.ratings import import_ratings
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store, StoreError


@pytest.fixture
def preset(tmp_path: Path) -> Path:
    for i in range(3):
        write_png(tmp_path / f"i{i}.png", seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"i{i}.png") for i in range(3)])


def batch(db: str, preset: Path, run: str = "r", model: str = "baseline/first", **kw: Any) -> Any:
    return run_batch(Store(db, **kw), [load_preset(preset)], [model], BatchOptions(run_name=run, progress=False))


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "bug in probe-ui" not in err and "Traceback" not in err, err
    return code, out, err


def sqlite_db(tmp_path: Path, preset: Path) -> str:
    db = str(tmp_path / "store" / "probe-ui.db")
    batch(db, preset)
    return db


def execute(db: str, *statements: str) -> None:
    """SQL as someone else would run it on the store: SQLite's own module, or psycopg through SQLAlchemy."""
    if "://" not in db:
        with sqlite3.connect(db) as c:
            for s in statements:
                c.executescript(s)
        return
    from probe_ui.store import database_url

    engine = sa.create_engine(database_url(db))
    with engine.begin() as c:
        for s in statements:
            c.exec_driver_sql(s)
    engine.dispose()


HACK = {"sqlite": "CREATE TRIGGER hack AFTER INSERT ON responses BEGIN UPDATE responses SET raw_text = 'A', "
                  "parse_version = NULL WHERE id = new.id; END",
        "postgresql": "CREATE FUNCTION hack() RETURNS trigger AS $$ BEGIN NEW.raw_text := 'A'; RETURN NEW; END $$ "
                      "LANGUAGE plpgsql; CREATE TRIGGER hack BEFORE INSERT ON responses FOR EACH ROW "
                      "EXECUTE FUNCTION hack()"}
ABORT = {"sqlite": "CREATE TRIGGER nope BEFORE INSERT ON responses BEGIN SELECT RAISE(ABORT, 'no inserts'); END",
         "postgresql": "CREATE FUNCTION nope() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no inserts'; END $$ "
                       "LANGUAGE plpgsql; CREATE TRIGGER nope BEFORE INSERT ON responses FOR EACH ROW "
                       "EXECUTE FUNCTION nope()"}


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request: pytest.FixtureRequest, tmp_path: Path, preset: Path) -> tuple[str, str]:
    """A store with run 'r' on each back end: (dialect, location)."""
    if request.param == "sqlite":
        return "sqlite", sqlite_db(tmp_path, preset)
    url = request.getfixturevalue("postgres_db")
    batch(url, preset)
    return "postgresql", url


def test_a_trigger_that_rewrites_answers_is_refused_and_trusted_only_with_a_warning(
        store_db: tuple[str, str], preset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dialect, db = store_db
    execute(db, HACK[dialect])
    code, _, err = cli(capsys, "score", "--db", db, "--run", "r")
    assert code == 1 and "has trigger 'hack' on responses, which probe-ui did not create" in err
    assert "add --trust-store to open it anyway" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(StoreError, match="trigger 'hack'"):
        batch(db, preset, run="r2", model="baseline/last")
    batch(db, preset, run="r2", model="baseline/last", trust=True)  # every answer rewritten to 'A'
    code, out, err = cli(capsys, "score", "--db", db, "--run", "r2", "--json", "--trust-store")
    assert code == 0 and "opened anyway (--trust-store)" in err
    assert any("trigger 'hack' on responses" in n for n in json.loads(out)["notes"])  # the scores say so too
    code, _, err = cli(capsys, "--trust-store", "score", "--db", db, "--run", "r2")  # before the command, too
    assert code == 0 and "may have been changed by it" in err


def test_a_trigger_that_aborts_inserts_is_one_line(store_db: tuple[str, str], preset: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    dialect, db = store_db
    execute(db, ABORT[dialect])
    code, _, err = cli(capsys, "batch", "--db", db, str(preset), "-m", "baseline/last", "--run", "r3",
                       "--no-progress", "--trust-store")
    assert code == 1 and "refused a write: a trigger in the database aborted it (" in err and "no inserts" in err


EAT = {"sqlite": "CREATE TRIGGER eat AFTER INSERT ON ratings BEGIN DELETE FROM ratings WHERE id = new.id; END",
       "postgresql": "CREATE FUNCTION eat() RETURNS trigger AS $$ BEGIN DELETE FROM ratings WHERE id = NEW.id; "
                     "RETURN NULL; END $$ LANGUAGE plpgsql; CREATE TRIGGER eat AFTER INSERT ON ratings FOR EACH ROW "
                     "EXECUTE FUNCTION eat()"}


def test_ratings_a_trigger_deletes_are_not_reported_as_imported(store_db: tuple[str, str], tmp_path: Path) -> None:
    dialect, db = store_db
    csv_path = tmp_path / "ratings.csv"
    csv_path.write_text("response_id,rater,rating,note\n1,ames,correct,a\n2,ames,incorrect,b\n", encoding="utf-8")
    assert import_ratings(Store(db), csv_path).ratings == 2  # the check itself passes on a sound store
    execute(db, EAT[dialect])
    csv_path.write_text("response_id,rater,rating,note\n1,boyd,correct,a\n3,boyd,unsure,c\n", encoding="utf-8")
    with pytest.raises(StoreError, match="did not keep 2 of the 2 ratings as they were written"):
        import_ratings(Store(db, trust=True), csv_path)
    assert sorted(Store(db, trust=True).ratings_frame(per_rater=True)["rater"]) == ["ames", "ames"]


def test_a_view_in_place_of_a_table_is_refused(store_db: tuple[str, str], capsys: pytest.CaptureFixture[str]
                                               ) -> None:
    dialect, db = store_db
    execute(db, "ALTER TABLE ratings RENAME TO ratings_kept", "CREATE VIEW ratings AS SELECT * FROM ratings_kept")
    for argv in (["ratings", "export", "--db", db], ["ratings", "export", "--db", db, "--trust-store"]):
        code, _, err = cli(capsys, *argv)
        assert code == 1 and "has a view (or another object that is not a table) where probe-ui keeps its " \
                             "table(s) 'ratings'" in err


def test_tables_and_views_of_others_are_named_in_a_warning(store_db: tuple[str, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    dialect, db = store_db
    execute(db, "CREATE TABLE notes_of_mine (x INTEGER)", "CREATE VIEW answer_count AS SELECT count(*) AS n FROM "
                                                          "responses")
    code, _, err = cli(capsys, "score", "--db", db, "--run", "r")
    assert code == 0 and "also holds table 'notes_of_mine', view 'answer_count', which probe-ui did not create" in err


def test_a_schema_version_that_is_not_a_number_names_the_store(store_db: tuple[str, str],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    dialect, db = store_db
    if dialect == "postgresql":  # an INTEGER column cannot hold 'abc' there: a negative number is the bad stamp
        execute(db, "UPDATE schema_version SET version = -3")
        bad = "'-3'"
    else:
        execute(db, "UPDATE schema_version SET version = 'abc'")
        bad = "'abc'"
    code, _, err = cli(capsys, "score", "--db", db)
    assert code == 1 and f"has {bad} as its schema version, which is not a version number" in err
    assert "restore the store from a backup" in err


def test_a_full_disk_during_a_batch_is_one_line_and_keeps_what_was_stored(tmp_path: Path, preset: Path) -> None:
    """SQLite's own "database or disk is full" (SQLITE_FULL), made by capping the file's pages."""
    db = sqlite_db(tmp_path, preset)
    store = Store(db)
    store.engine.dispose()
    pages = int(sqlite3.connect(db).execute("PRAGMA page_count").fetchone()[0])

    @event.listens_for(store.engine, "connect")
    def cap(dbapi: Any, _record: Any) -> None:
        dbapi.execute(f"PRAGMA max_page_count = {pages}")

    big = write_preset(tmp_path / "big.yaml", [choice_item(i, f"i{i % 3}.png", question="x" * 5000)
                                               for i in range(200)])
    with pytest.raises(StoreError, match=r"the store at .*probe-ui.db cannot be written: the disk is full \(.* free "
                                         r"on its filesystem\); free some space and run the same command again"):
        run_batch(store, [load_preset(big)], ["baseline/first"], BatchOptions(run_name="big", progress=False))
    assert len(Store(db).answers_frame(Store(db).get_run("r").id)) == 3  # what was stored before is kept
    ratings = tmp_path / "ratings.csv"  # a ratings import onto the same full disk: all or nothing, one line
    ratings.write_text("response_id,rater,rating,note\n" + "".join(f"{1 + i % 3},r{i},correct,{'n' * 2000}\n"
                                                                  for i in range(500)), encoding="utf-8")
    with pytest.raises(StoreError, match=r"cannot be written: the disk is full"):
        import_ratings(store, ratings)
    assert Store(db).ratings_frame().empty


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_batch_onto_a_really_full_disk_is_one_line(tmp_path: Path, preset: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The same through the CLI on a 400 kB tmpfs mounted in a throwaway folder: SQLite and the image files."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("mount -t tmpfs is not allowed here")
    try:
        big = write_preset(tmp_path / "big.yaml", [choice_item(i, f"i{i % 3}.png", question="x" * 4000)
                                                   for i in range(300)])
        code = main(["batch", "--db", str(mnt / "probe-ui.db"), str(big), "-m", "baseline/first", "--no-progress"])
        err = capsys.readouterr().err
        assert code == 1 and "the disk is full (" in err and str(mnt) in err, err
        assert "bug in probe-ui" not in err
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
