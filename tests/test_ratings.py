"""Ratings by several clinicians: each rater's latest rating counts, the CSV import is all or nothing with its
problems listed by line, the export reads back, and the scored table and exports carry one rating per rater."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.exports import export_run
from probe_ui.presets import load_preset
from probe_ui.ratings import RatingsFileError, export_csv, import_ratings
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import scored_answers
from probe_ui.store import Store, StoreError


@pytest.fixture
def rated(tmp_path: Path) -> tuple[Store, list[int], Path]:
    for i in range(3):
        write_png(tmp_path / f"i{i}.png", seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"i{i}.png") for i in range(3)])
    db = tmp_path / "probe-ui.db"
    store = Store(db)
    run_batch(store, [load_preset(preset)], ["baseline/first", "baseline/last"],
              BatchOptions(run_name="r", progress=False))
    ids = [int(x) for x in scored_answers(store, "r")["response_id"]]
    return store, ids, db


def write_csv(path: Path, rows: list[list[object]], header: list[str] | None = None) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header or ["response_id", "rater", "rating", "note"])
        w.writerows(rows)
    return path


def test_each_raters_latest_rating_counts(rated: tuple[Store, list[int], Path]) -> None:
    store, ids, _ = rated
    a, b = ids[:2]
    store.rate_response(a, "incorrect", "first look", rater="Dr Ames")
    store.rate_response(a, "correct", "", rater="  Dr   Boyd ")  # names are whitespace-normalised
    store.rate_response(a, "correct", "second look", rater="Dr Ames")  # supersedes Ames' first, not Boyd's
    store.rate_response(b, "unsure")  # no name (the app before raters, or nobody logged in)
    assert store.latest_rating(a) == ("correct", "second look")
    assert store.latest_rating(a, rater="Dr Boyd") == ("correct", "")
    assert store.latest_rating(a, rater="Dr Cole") == (None, "")
    per = store.ratings_frame(per_rater=True)
    assert per[["response_id", "rater", "rating"]].values.tolist() == [
        [a, "Dr Ames", "correct"], [a, "Dr Boyd", "correct"], [b, "", "unsure"]]
    assert store.ratings_frame().to_dict("records") == [  # the latest of anyone, as before
        {"response_id": a, "rating": "correct", "note": "second look"}, {"response_id": b, "rating": "unsure",
                                                                         "note": ""}]
    df = scored_answers(store, "r").set_index("response_id")
    assert df.loc[a, "rater_ratings"] == {"Dr Ames": "correct", "Dr Boyd": "correct"}
    assert df.loc[b, "rater_ratings"] == {"": "unsure"} and df.loc[a, "rating"] == "correct"
    assert df.loc[ids[2], "rater_ratings"] is None and df.loc[ids[2], "rating"] == "unrated"
    with pytest.raises(StoreError, match="rater name longer than 100"):
        store.rate_response(a, "correct", rater="x" * 101)


def test_add_ratings_is_one_transaction(rated: tuple[Store, list[int], Path]) -> None:
    store, ids, _ = rated
    with pytest.raises(StoreError, match="no response #99999"):
        store.add_ratings([{"response_id": ids[0], "rating": "correct", "rater": "a"},
                           {"response_id": 99999, "rating": "correct", "rater": "a"}])
    with pytest.raises(StoreError, match="rating must be one of correct, incorrect, unsure, not 'great'"):
        store.add_ratings([{"response_id": ids[0], "rating": "correct"}, {"response_id": ids[1], "rating": "great"}])
    assert store.ratings_frame().empty


def test_csv_import_lists_every_problem_by_line_and_imports_nothing(rated: tuple[Store, list[int], Path],
                                                                     tmp_path: Path) -> None:
    store, ids, _ = rated
    path = write_csv(tmp_path / "r.csv", [
        [ids[0], "ames", "correct", "fine"],
        [99999, "ames", "correct", ""],           # line 3: unknown id
        [ids[1], "ames", "maybe", ""],            # line 4: bad rating
        ["abc", "boyd", "correct", ""],           # line 5: not an id
        [ids[2], "", "incorrect", ""],            # line 6: no rater
    ])
    with pytest.raises(RatingsFileError) as err:
        import_ratings(store, path)
    assert err.value.problems == [
        f"{path}: line 3: field 'response_id': no answer #99999 in this store",
        f"{path}: line 4: field 'rating': 'maybe' is not one of correct, incorrect, unsure",
        f"{path}: line 5: field 'response_id': 'abc' is not an answer id (a whole number from 1)",
        f"{path}: line 6: field 'rater': empty (name the rater, or give --rater NAME for rows without one)"]
    assert store.ratings_frame().empty
    fixed = write_csv(tmp_path / "r2.csv", [[ids[0], "ames", "correct", ""], [99999, "ames", "correct", ""],
                                            [ids[1], "boyd", "Incorrect", ""], [99998, "ames", "unsure", ""]])
    with pytest.raises(RatingsFileError) as err:
        import_ratings(store, fixed)
    assert err.value.problems == [f"{fixed}: line 3: field 'response_id': no answer #99999 in this store",
                                  f"{fixed}: line 5: field 'response_id': no answer #99998 in this store"]
    assert store.ratings_frame().empty  # nothing half-imported
    missing = write_csv(tmp_path / "r3.csv", [[ids[0], "correct"]], header=["response_id", "rating"])
    with pytest.raises(RatingsFileError, match=r"line 1: missing column\(s\) 'rater' \(or give --rater NAME\)"):
        import_ratings(store, missing)
    assert import_ratings(store, missing, default_rater="cole").raters == ["cole"]


def test_import_then_export_reads_back(rated: tuple[Store, list[int], Path], tmp_path: Path) -> None:
    store, ids, _ = rated
    path = write_csv(tmp_path / "r.csv", [[ids[0], "ames", "correct", "a, quoted \"note\""],
                                          [ids[0], "boyd", "incorrect", ""], [ids[1], "ames", "UNSURE", ""],
                                          [ids[0], "ames", "incorrect", "changed my mind"]])
    summary = import_ratings(store, path)
    assert (summary.ratings, summary.answers, summary.raters) == (4, 2, ["ames", "boyd"])
    text = export_csv(store, "r")
    back = list(csv.DictReader(text.splitlines()))
    assert [(int(r["response_id"]), r["rater"], r["rating"], r["note"]) for r in back] == [
        (ids[0], "ames", "incorrect", "changed my mind"), (ids[0], "boyd", "incorrect", ""),
        (ids[1], "ames", "unsure", "")]
    assert back[0]["run"] == "r" and back[0]["model"] in ("baseline/first", "baseline/last")
    before = store.ratings_frame(per_rater=True)[["response_id", "rater", "rating", "note"]]
    again = tmp_path / "again.csv"
    again.write_text(text, encoding="utf-8")
    import_ratings(store, again)  # an export imports back as it is; nothing that counts changes
    after = store.ratings_frame(per_rater=True)[["response_id", "rater", "rating", "note"]]
    pd.testing.assert_frame_equal(before, after)


def test_cli_ratings_import_and_export(rated: tuple[Store, list[int], Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    store, ids, db = rated
    bad = write_csv(tmp_path / "bad.csv", [[ids[0], "ames", "right", ""]])
    assert main(["ratings", "import", str(bad), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert f"error: {bad}: line 2: field 'rating': 'right' is not one of correct, incorrect, unsure" in err
    assert "nothing was imported" in err
    good = write_csv(tmp_path / "good.csv", [[ids[0], "", "correct", ""], [ids[1], "boyd", "incorrect", ""]])
    assert main(["ratings", "import", str(good), "--rater", "ames", "--db", str(db)]) == 0
    assert "imported 2 ratings of 2 answers by 2 rater(s) (ames, boyd)" in capsys.readouterr().out
    out = tmp_path / "out" / "ratings.csv"
    assert main(["ratings", "export", "--db", str(db), "--run", "r", "--out", str(out)]) == 0
    assert "wrote 2 ratings by 2 rater(s) (ames, boyd)" in capsys.readouterr().out
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert [(r["rater"], r["rating"]) for r in rows] == [("ames", "correct"), ("boyd", "incorrect")]


def test_exports_carry_one_rating_column_per_rater(rated: tuple[Store, list[int], Path], tmp_path: Path) -> None:
    store, ids, _ = rated
    store.rate_response(ids[0], "correct", rater="ames")
    store.rate_response(ids[0], "incorrect", rater="boyd")
    store.rate_response(ids[1], "unsure")
    export_run(store, "r", "csv", tmp_path / "csv")
    df = pd.read_csv(tmp_path / "csv" / "data.csv").set_index("response_id")
    cols = list(df.columns)
    assert cols[cols.index("note") + 1: cols.index("note") + 4] == ["rating:(unnamed)", "rating:ames", "rating:boyd"]
    assert (df.loc[ids[0], "rating:ames"], df.loc[ids[0], "rating:boyd"]) == ("correct", "incorrect")
    assert df.loc[ids[1], "rating:(unnamed)"] == "unsure" and pd.isna(df.loc[ids[1], "rating:ames"])
    card = (tmp_path / "csv" / "README.md").read_text(encoding="utf-8")
    assert "| `rating:ames` | string | the latest rating of this answer by ames" in card
    export_run(store, "r", "jsonl", tmp_path / "jsonl", by="variant")
    import json

    answers = [a for line in (tmp_path / "jsonl" / "data.jsonl").read_text().splitlines()
               for a in json.loads(line)["answers"]]
    assert next(a for a in answers if a["response_id"] == ids[0])["ratings"] == {"ames": "correct",
                                                                                "boyd": "incorrect"}
