"""Issue 24: `probe-ui ratings import` reads strictly. An unclosed quote swallowed the rest of the file ("imported 1
ratings" from 3 rows), a CSV with two `rating` columns imported silently, /dev/zero was read whole until MemoryError,
and a rating id of 10**30 was "a bug in probe-ui" (a planted trigger that deleted ratings while the import said
"imported 3" is tested in test_store_check.py, on both back ends). Now: malformed CSV is refused naming the line, a
size cap applies, a non-regular file is refused unread, and the import says how many rows it read, stored and
skipped, and why."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.ratings import RatingsFileError, import_ratings
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store

HEADER = "response_id,rater,rating,note\n"


@pytest.fixture
def store_db(tmp_path: Path) -> tuple[Store, Path]:
    for i in range(3):
        write_png(tmp_path / f"i{i}.png", seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"i{i}.png") for i in range(3)])
    db = tmp_path / "probe-ui.db"
    store = Store(db)
    run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="r", progress=False))
    return store, db


def csv_file(tmp_path: Path, text: str, name: str = "ratings.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def import_cli(db: Path, path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["ratings", "import", "--db", str(db), str(path)])
    out, err = capsys.readouterr()
    assert "bug" not in err and "Traceback" not in err
    return code, out, err


def test_an_unclosed_quote_is_refused_with_its_line(store_db: tuple[Store, Path], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    store, db = store_db
    path = csv_file(tmp_path, HEADER + '1,ames,correct,"fine\n2,ames,correct,x\n3,ames,incorrect,y\n')
    code, _, err = import_cli(db, path, capsys)
    assert code == 1
    assert f"{path}: line 2: not valid CSV: a quoted field that begins on this line is never closed" in err
    assert store.ratings_frame().empty
    # a quoted note over several lines is fine when it is closed
    ok = csv_file(tmp_path, HEADER + '1,ames,correct,"two\nlines"\n2,ames,correct,x\n', "ok.csv")
    assert import_ratings(store, ok).ratings == 2
    assert store.latest_rating(1) == ("correct", "two\nlines")


def test_a_column_named_twice_is_refused(store_db: tuple[Store, Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    store, db = store_db
    path = csv_file(tmp_path, "response_id,rater,rating,rating\n1,boyd,correct,incorrect\n")
    code, _, err = import_cli(db, path, capsys)
    assert code == 1 and f"{path}: line 1: column 'rating' appears twice in the header" in err
    assert store.ratings_frame().empty


def test_rows_of_the_wrong_width_are_refused_by_line(store_db: tuple[Store, Path], tmp_path: Path) -> None:
    store, _ = store_db
    path = csv_file(tmp_path, HEADER + "1,cole,correct\n2,cole,correct,,extra\n3,cole,correct,ok\n")
    with pytest.raises(RatingsFileError) as err:
        import_ratings(store, path)
    assert err.value.problems == [f"{path}: line 2: 3 fields, but the header has 4 columns",
                                  f"{path}: line 3: 5 fields, but the header has 4 columns"]
    assert store.ratings_frame().empty


def test_a_huge_answer_id_is_a_message(store_db: tuple[Store, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    _, db = store_db
    path = csv_file(tmp_path, HEADER + f"{10**30},ames,correct,\n")
    code, _, err = import_cli(db, path, capsys)
    assert code == 1
    assert f"line 2: field 'response_id': {10**30} is larger than any answer id (at most 2,147,483,647)" in err


def test_a_fifo_is_refused_unread(store_db: tuple[Store, Path], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    store, _ = store_db
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)  # opening it for reading waited for a writer that never came
    result: list[BaseException] = []

    def read() -> None:
        try:
            import_ratings(store, fifo)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            result.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # release the reader (a writer that closes at once), then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
        pytest.fail("the import waited on the FIFO")
    assert isinstance(result[0], RatingsFileError)
    assert f"{fifo}: is a named pipe (FIFO), not a CSV file" in str(result[0])


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
def test_a_device_like_dev_zero_is_refused_unread(store_db: tuple[Store, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """/dev/zero was read until MemoryError; a copy of its node in a throwaway folder stands in for it. The CLI runs
    in a child process whose memory is capped at 800 MiB, so that a reader that does not stop cannot take the
    machine's memory (it fails with MemoryError there instead)."""
    _, db = store_db
    zero = tmp_path / "zero"
    os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (800 * 2**20, 800 * 2**20)); "
            "from probe_ui.cli import main; sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "ratings", "import", "--db", str(db), str(zero)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and f"{zero}: is a device, not a CSV file" in done.stderr, done.stderr


def test_a_file_over_the_size_cap_is_refused(store_db: tuple[Store, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    _, db = store_db
    monkeypatch.setenv("PROBE_UI_MAX_RATINGS_BYTES", "1000")
    path = csv_file(tmp_path, HEADER + "1,ames,correct,x\n" * 100)
    code, _, err = import_cli(db, path, capsys)
    assert code == 1 and "over the 1,000-byte limit for a ratings file (set PROBE_UI_MAX_RATINGS_BYTES" in err


def test_the_summary_says_what_was_read_stored_and_skipped(store_db: tuple[Store, Path], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    store, db = store_db
    store.rate_response(1, "correct", "fine", rater="ames")
    path = csv_file(tmp_path, HEADER + "1,ames,correct,fine\n\n2,ames,incorrect,\n3,boyd,unsure,hm\n")
    code, out, _ = import_cli(db, path, capsys)
    assert code == 0
    assert (f"read 4 rows of {path}: imported 2 ratings of 2 answers by 2 rater(s) (ames, boyd); skipped 2 "
            "(1 blank line; 1 already that rater's latest rating of the answer, with the same note)") in out
    code, out, _ = import_cli(db, path, capsys)  # again: nothing new
    assert "imported 0 ratings" in out and "skipped 4" in out
    assert len(store.ratings_frame(per_rater=True)) == 3
