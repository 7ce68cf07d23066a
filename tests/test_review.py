"""Settling the readings the reader was not sure of (issue 46): stored per clinician with the time, counted by
how they were settled, used by --parser settled in every figure, reviewed from the terminal, and two clinicians'
agreement (and a judge model's) shown."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from helpers import run_cli, store_replies, write_png, write_preset

from probe_ui.cli import main
from probe_ui.scoring import ScoringError, score_run, scored_answers
from probe_ui.scoring.review import (
    ReviewError,
    judge_agreement,
    kappa_words,
    pending_html,
    settle,
    settler_agreement,
    to_review,
)
from probe_ui.store import Store, StoreError

QUESTIONS = ["Is there a pleural effusion?", "Is there a pneumothorax?", "Is the heart enlarged?",
             "Is there a fracture?"]
# one model's replies: two sure readings, two the reader guesses
REPLIES = ["No.", "Yes, there is a pneumothorax.", "Probably yes, though it is hard to say.",
           "No fracture. Actually, wait: yes, a subtle fracture line."]


@pytest.fixture
def run(tmp_path: Path) -> tuple[Store, list[int], Path]:
    items = []
    for i, q in enumerate(QUESTIONS):
        write_png(tmp_path / f"i{i}.png", seed=i)
        items.append({"id": f"q{i}", "image": f"i{i}.png", "question": q, "kind": "yesno", "answer": "yes"})
    preset = write_preset(tmp_path / "p.yaml", items)
    db = tmp_path / "probe-ui.db"
    store = Store(db)
    ids = store_replies(store, preset, {"model/a": REPLIES})
    return store, ids, db


def test_unsure_readings_are_listed_with_the_guess_and_why(run: tuple[Store, list[int], Path]) -> None:
    store, ids, _ = run
    df = scored_answers(store, "r")
    assert df.set_index("response_id")["reading"].to_dict() == {ids[0]: "sure", ids[1]: "sure",
                                                                 ids[2]: "unsure", ids[3]: "unsure"}
    pending = to_review(df, "ames")
    assert [p.response_id for p in pending] == ids[2:]
    hedge, reversal = pending
    assert hedge.guess == "yes" and "it hedges" in hedge.why
    assert reversal.guess == "yes" and "it changes its answer" in reversal.why
    assert hedge.answers == [("yes", "yes"), ("no", "no")] and hedge.question == QUESTIONS[2]


def test_a_settlement_is_stored_per_clinician_with_the_time_and_checked(run: tuple[Store, list[int], Path]) -> None:
    store, ids, _ = run
    settle(store, ids[2], "no", "Dr Ames")
    settle(store, ids[2], "yes", "Dr Ames")  # her later reading supersedes her first
    settle(store, ids[2], "no", "Dr Boyd")
    per = store.settlements_frame(per_settler=True)
    assert per[["response_id", "settled_by", "label"]].values.tolist() == [[ids[2], "Dr Ames", "yes"],
                                                                            [ids[2], "Dr Boyd", "no"]]
    assert all(per["created_at"].str.match(r"\d{4}-\d\d-\d\dT"))
    with pytest.raises(StoreError, match=r"answer #\d+: 'B' is not one of its answers \(yes, no\)"):
        settle(store, ids[3], "B", "Dr Ames")
    with pytest.raises(StoreError, match="no response #99999"):
        store.settle_readings([{"response_id": ids[3], "label": "yes", "settled_by": "x"},
                               {"response_id": 99999, "label": "yes", "settled_by": "x"}])
    assert len(store.settlements_frame()) == 1  # all or none: the valid first row was not kept
    # a page settles only what it shows: an answer outside the runs it shows is refused
    with pytest.raises(ReviewError, match=rf"answer #{ids[3]} is not one of the chosen runs' answers"):
        settle(store, ids[3], "yes", "Dr Ames", among=scored_answers(store, "r").iloc[:2])


def test_settled_readings_change_the_figures_only_under_the_settled_parser(run: tuple[Store, list[int], Path]
                                                                          ) -> None:
    store, ids, _ = run
    before = score_run(store, "r", "settled")["models"]["model/a"]
    assert before["readings"] == {"settled": 0, "sure": 2, "unsure": 2}
    assert before["accuracy"]["value"] == 75.0  # "No." is wrong; the three guesses of yes are right
    settle(store, ids[2], None, "Dr Ames")  # the hedge gives no answer
    settle(store, ids[3], "no", "Dr Ames")  # she reads the reversal the other way
    after = score_run(store, "r", "settled")["models"]["model/a"]
    assert after["readings"] == {"settled": 2, "sure": 2, "unsure": 0}
    assert after["accuracy"]["value"] == 25.0 and after["invalid_rate"]["value"] == 25.0
    df = scored_answers(store, "r", "settled").set_index("response_id")
    assert df.loc[ids[2], "method"] == "settled" and df.loc[ids[2], "parsed"] is None
    assert df.loc[ids[3], "parsed"] == "no" and df.loc[ids[3], "correct"] is False
    robust = score_run(store, "r", "robust")["models"]["model/a"]
    assert robust["accuracy"]["value"] == 75.0  # --parser robust keeps its meaning
    assert robust["readings"] == {"settled": 2, "sure": 2, "unsure": 0}  # the counts say what was settled


def test_two_clinicians_settle_independently_and_their_agreement_is_shown(run: tuple[Store, list[int], Path]
                                                                         ) -> None:
    store, ids, _ = run
    settle(store, ids[2], "yes", "Dr Ames")
    assert [p.response_id for p in to_review(scored_answers(store, "r"), "Dr Ames")] == [ids[3]]
    # another clinician still sees both: a settlement by one does not take a reply off another's list
    assert [p.response_id for p in to_review(scored_answers(store, "r"), "Dr Boyd")] == ids[2:]
    settle(store, ids[2], "no", "Dr Boyd")
    settle(store, ids[3], "yes", "Dr Ames")
    settle(store, ids[3], "yes", "Dr Boyd")
    agreement = settler_agreement(scored_answers(store, "r"), n_boot=200)
    assert agreement is not None and agreement["settlers"] == ["Dr Ames", "Dr Boyd"]
    pair = agreement["pairs"][0]
    assert pair["n"] == 2 and pair["observed"] == 0.5
    assert [d["response_id"] for d in agreement["disagreements"]] == [ids[2]]
    assert agreement["disagreements"][0]["readings"] == {"Dr Ames": "yes", "Dr Boyd": "no"}
    assert settler_agreement(scored_answers(store, "r").iloc[:0]) is None
    # the report's section marks a kappa over fewer than 10 replies rough, as the terminal's words do
    from probe_ui.views.report.cases import settled_section
    html = settled_section(scored_answers(store, "r"))
    assert "Dr Ames and Dr Boyd" in html and ">2, rough<" in html


def test_each_clinician_can_score_with_only_her_own_settlements(run: tuple[Store, list[int], Path],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``--settled-by``: Dr Ames's figures use her readings even where Dr Boyd settled the same reply later; the
    latest of anyone's is the default; a name that settled nothing is said, and the option needs --parser settled."""
    store, ids, db = run
    settle(store, ids[2], "yes", "Dr Ames")  # the hedge: yes (the truth)
    settle(store, ids[2], None, "Dr Boyd")  # later, Dr Boyd: no answer
    latest = score_run(store, "r", "settled")["models"]["model/a"]
    ames = score_run(store, "r", "settled", settled_by="Dr Ames")
    boyd = score_run(store, "r", "settled", settled_by="  Dr   Boyd ")  # as names are stored
    assert ames["settled_by"] == "Dr Ames" and boyd["settled_by"] == "Dr Boyd"
    assert ames["models"]["model/a"]["readings"] == {"settled": 1, "sure": 2, "unsure": 1}
    df = scored_answers(store, "r", "settled", settled_by="Dr Ames").set_index("response_id")
    assert df.loc[ids[2], "parsed"] == "yes" and df.loc[ids[2], "correct"] is True
    assert df.loc[ids[2], "settled_by"] == {"Dr Ames": "yes", "Dr Boyd": ""}  # everyone's still shown
    assert scored_answers(store, "r", "settled").set_index("response_id").loc[ids[2], "parsed"] is None
    assert latest == boyd["models"]["model/a"]
    assert ames["models"]["model/a"] != latest
    nobody = score_run(store, "r", "settled", settled_by="Dr Cole")
    assert nobody["notes"][0] == "'Dr Cole' settled no reply of this run: every reading is the reader's"
    with pytest.raises(ScoringError, match="--parser settled"):
        scored_answers(store, "r", "robust", settled_by="Dr Ames")
    code, out, _ = run_cli(capsys, "score", "--db", str(db), "--run", "r", "--parser", "settled", "--settled-by",
                           "Dr Ames", "--json")
    assert code == 0 and json.loads(out)["settled_by"] == "Dr Ames"
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "score", "--db", str(db), "--run", "r", "--settled-by", "Dr Ames")
    assert exc.value.code == 2


def test_exports_carry_how_each_reading_was_settled_and_each_clinicians_reading(
        run: tuple[Store, list[int], Path], tmp_path: Path) -> None:
    """Issue 46: ``sure`` and how the reading was settled travel with the answers, with one column per clinician
    (as ratings have), so a dataset says which readings a person checked and which are the reader's guesses."""
    import json

    import pandas as pd

    from probe_ui.exports import export_run

    store, ids, _ = run
    settle(store, ids[2], None, "Dr Ames")
    settle(store, ids[2], "yes", "Dr Boyd")
    export_run(store, "r", "csv", tmp_path / "csv")
    df = pd.read_csv(tmp_path / "csv" / "data.csv").set_index("response_id")
    cols = list(df.columns)
    assert cols[cols.index("reading") + 1: cols.index("reading") + 3] == ["settled:Dr Ames", "settled:Dr Boyd"]
    assert df["reading"].to_dict() == {ids[0]: "sure", ids[1]: "sure", ids[2]: "settled", ids[3]: "unsure"}
    assert df["sure"].to_dict() == {ids[0]: True, ids[1]: True, ids[2]: False, ids[3]: False}
    assert (df.loc[ids[2], "settled:Dr Ames"], df.loc[ids[2], "settled:Dr Boyd"]) == ("no answer", "yes")
    assert df["settled:Dr Ames"].isna().sum() == 3 and "confidence" in cols and "token_confidence" in cols
    card = (tmp_path / "csv" / "README.md").read_text(encoding="utf-8")
    assert "| `settled:Dr Ames` | string | what Dr Ames read the reply as answering" in card
    assert "| `reading` | string | how the reading was settled: sure" in card
    export_run(store, "r", "jsonl", tmp_path / "jsonl", by="variant")
    answers = {a["response_id"]: a for line in (tmp_path / "jsonl" / "data.jsonl").read_text().splitlines()
               for a in json.loads(line)["answers"]}
    assert answers[ids[2]]["settled"] == {"Dr Ames": "no answer", "Dr Boyd": "yes"}
    assert answers[ids[3]]["settled"] is None and answers[ids[3]]["reading"] == "unsure"


def test_a_judges_agreement_with_the_clinicians(run: tuple[Store, list[int], Path]) -> None:
    import sqlalchemy as sa

    from probe_ui.store import responses

    store, ids, _ = run
    with store.engine.begin() as c:
        rows = {r["id"]: dict(r) for r in c.execute(sa.select(responses)).mappings()}
    for rid, verdict in ((ids[2], "yes"), (ids[3], "no")):
        judge = {k: v for k, v in rows[rid].items() if k not in ("id", "created_at")}
        store.save_response(dict(judge, model="judge/model", prompt=f"judge-mediconfusion:model/a:{rid}",
                                 role="judge", parent_id=rid, raw_text=verdict, parsed=verdict,
                                 method="judge-mediconfusion", correct=verdict == "yes", error=None))
    assert judge_agreement(scored_answers(store, "r")) is None  # nobody settled these yet
    settle(store, ids[2], "yes", "Dr Ames")
    settle(store, ids[3], "yes", "Dr Ames")
    k = judge_agreement(scored_answers(store, "r"), n_boot=100)
    assert k is not None and k["n"] == 2 and k["observed"] == 0.5 and k["judge"] == "judge/model"
    # beside the judged figures: score's report and table say it
    report = score_run(store, "r")
    assert report["settled_agreement"]["judge"]["n"] == 2
    from probe_ui.views.score_text import format_score_table

    assert "judge judge/model against the clinicians' settled readings: kappa" in format_score_table(report)


def test_review_from_the_terminal(run: tuple[Store, list[int], Path], monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    store, ids, db = run
    assert main(["review", "r", "--db", str(db), "--clinician", "Dr Ames", "--list"]) == 0
    listed = capsys.readouterr().out
    assert f"#{ids[2]}" in listed and f"#{ids[3]}" in listed and "2 readings to settle" in listed
    # "x" is not an answer (asked again), then "2" (no) settles the hedge; "n" reads the reversal as no answer
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n2\nn\n"))
    assert main(["review", "r", "--db", str(db), "--clinician", "Dr Ames"]) == 0
    out = capsys.readouterr().out
    assert "'x' is not one of this item's answers" in out and "settled 2 of 2 readings as Dr Ames" in out
    assert "reader's guess: yes (it hedges)" in out
    per = Store(db).settlements_frame(per_settler=True)
    assert per[["response_id", "label"]].values.tolist() == [[ids[2], "no"], [ids[3], ""]]
    assert main(["review", "r", "--db", str(db), "--clinician", "Dr Ames"]) == 0
    assert "nothing to review" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nq\n"))  # a second clinician settles one, then stops
    assert main(["review", "r", "--db", str(db), "--clinician", "Dr Boyd"]) == 0
    assert "settled 1 of 2" in capsys.readouterr().out
    assert main(["review", "r", "--db", str(db), "--agreement"]) == 0
    out = capsys.readouterr().out
    assert "Dr Ames and Dr Boyd: kappa" in out and "1 reply read differently" in out
    assert main(["score", "--db", str(db), "--run", "r", "--parser", "settled"]) == 0
    out = capsys.readouterr().out
    assert "model/a: 2 sure, 0 unsure, 2 settled" in out and "parser settled" in out


def test_reviewing_an_unknown_run_is_a_one_line_error(run: tuple[Store, list[int], Path],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    store, ids, db = run
    assert main(["review", "nope", "--db", str(db)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope" in err[0]


def test_the_card_shows_the_reply_as_written_and_escaped(run: tuple[Store, list[int], Path]) -> None:
    store, ids, _ = run
    p = to_review(scored_answers(store, "r"), "x")[0]
    html = pending_html(p, 1, 2)
    assert "Reading 1 of 2 to review" in html and "model/a" in html and QUESTIONS[2] in html
    assert "The reader's guess:</b> yes" in html and "unsure: it hedges" in html
    hostile = pending_html(type(p)(**{**p.__dict__, "reply": "<script>alert(1)</script>"}), 1, 1)
    assert "<script>" not in hostile and "&lt;script&gt;" in hostile


def test_why_a_reading_is_unsure_is_said_in_words_for_a_reply_that_ends_in_another_answer() -> None:
    """The doubt is judged on the reply as the reader cleans it (a trailing template token aside) and said in plain
    words, not by its code name."""
    from probe_ui.scoring.review import _why

    row = {"raw_text": "Yes. The inlet is round. My considered view after a second pass is No.<|im_end|>",
           "question": "Is this a female pelvis?"}
    assert "its last word is another answer" in _why(row, "yesno", ())


def test_every_doubt_the_reader_names_has_plain_words_for_the_review_card() -> None:
    """The "to review" card says why a reading is unsure in words, never by the reader's code name: every name
    ``sureness.doubts`` can give has its words in ``review.DOUBTS``."""
    import inspect
    import re

    from probe_ui.reading import sureness
    from probe_ui.scoring.review import DOUBTS

    names = set(re.findall(r'found\.append\("([^"]+)"\)', inspect.getsource(sureness.doubts)))
    assert len(names) >= 15, names  # the pattern still finds them
    assert not names - set(DOUBTS), sorted(names - set(DOUBTS))


@pytest.mark.parametrize(("k", "words"), [
    # two replies: the bootstrap's interval only reflects how few there are, so it is marked rough, as accuracy is
    ({"kappa": 0.333, "ci": [0.0, 0.333], "n": 2},
     "kappa 0.33 (95% CI 0.00-0.33), 2 replies both read; rough: fewer than 10 replies"),
    ({"kappa": 0.82, "ci": [0.61, 1.0], "n": 14}, "kappa 0.82 (95% CI 0.61-1.00), 14 replies both read"),
    ({"kappa": None, "ci": None, "n": 0}, "kappa undefined (0 replies both read)"),
])
def test_a_kappa_over_few_replies_says_it_is_rough(k: dict[str, object], words: str) -> None:
    assert kappa_words(k) == words
