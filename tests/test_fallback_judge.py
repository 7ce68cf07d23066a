"""The fallback judge (issue 21): a judge model for the replies the reading rules leave invalid.

It is asked only when named (``--judge MODEL``), only about replies the rules cannot read, once per reply and
judge (stored, never asked again; an identical call in another run comes from the cache), and its answers count
with the method ``judge``, its own reply kept. The judge here is the loopback OpenAI server.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.runner.judge import parse_fallback
from probe_ui.scoring import scored_answers
from probe_ui.scoring.fallback import JudgeError, judge_unread
from probe_ui.store import Store, responses

# the model's replies, by item: q0 read by the rules, q1 and q2 not (q1 names B in words no rule reads, q2 names
# nothing), q3 empty (nothing for a judge)
REPLIES = {"0": "B", "1": "Going by the picture, the finding listed after the other it is.", "2": "Hmm, difficult.",
           "3": ""}


@pytest.fixture
def run_db(tmp_path: Path, fake_openai, monkeypatch) -> tuple[str, list[dict]]:
    """A run of four items answered by openai/fake-vlm (REPLIES); the judge (openai/judge) maps q1's reply to B
    and q2's to NONE. Returns the database and the fake server's request log."""
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", size=(40, 30), seed=i)
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i}.png", answer="B") for i in range(4)])
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")

    def respond(body: dict) -> str:
        text = json.dumps(body["messages"])
        if body["model"] == "judge":
            assert "Reply:" in text and "image_url" not in text  # the judge reads words, not the image
            return "B" if "listed after the other" in text else "NONE"
        return REPLIES[text.split("image ")[1][0]]

    fake_openai.responder = respond
    db = str(tmp_path / "x.db")
    assert main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--run", "r", "--no-progress"]) == 0
    return db, fake_openai.requests


def _judge_calls(requests: list) -> int:
    return sum(1 for r in requests if (r.body or {}).get("model") == "judge")  # GET /models has no body


def test_score_with_a_judge_reads_only_the_unread_replies_and_reports_them(run_db, capsys) -> None:
    db, requests = run_db
    capsys.readouterr()
    assert main(["score", "--db", db, "--run", "r", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["models"]["openai/fake-vlm"]["accuracy"]["numerator"] == 1  # only q0 is read
    assert "judge" not in plain and _judge_calls(requests) == 0  # off unless named

    assert main(["score", "--db", db, "--run", "r", "--judge", "openai/judge", "--json"]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert "2 answers the rules could not read; 2 asked now" in out.err  # q1, q2: not q0 (read), not q3 (empty)
    assert _judge_calls(requests) == 2
    assert report["judge"] == {"model": "openai/judge", "decided": 1}
    model = report["models"]["openai/fake-vlm"]
    assert model["judged"] == 1 and model["accuracy"]["numerator"] == 2  # q1 now B, right

    df = scored_answers(Store(db), "r", judge="openai/judge").set_index("item_id")
    assert (df.loc["q1", "parsed"], df.loc["q1", "method"], df.loc["q1", "judge_text"]) == ("B", "judge", "B")
    assert df.loc["q2", "parsed"] is None and df.loc["q2", "method"] == "judge-none"
    assert df.loc["q0", "method"] == "exact" and df.loc["q0", "judge_model"] is None  # the rules' reading stays
    with Store(db).engine.connect() as c:
        judged = c.execute(sa.select(responses).where(responses.c.role == "judge")).mappings().all()
    assert {j["prompt"] for j in judged} == {"judge-fallback:openai/fake-vlm:mediconfusion-mc"}
    assert all(j["parent_id"] is not None and j["raw_text"] in ("B", "NONE") for j in judged)

    # the answer's detail says in words how it was read, and what the judge said
    from probe_ui.views.results import response_detail

    _, text = response_detail(Store(db), int(df.loc["q1", "response_id"]))
    assert "**How it was read**: no answer could be read\n" in text and "method: none" in text  # rule: for an audit
    assert "**Judge** openai/judge read it as B" in text and "counts where this judge is chosen" in text
    _, text = response_detail(Store(db), int(df.loc["q0", "response_id"]))
    assert "**How it was read**: the reply is the answer itself" in text and "**Judge**" not in text

    # asked once: a second score asks nothing
    assert main(["score", "--db", db, "--run", "r", "--judge", "openai/judge"]) == 0
    assert _judge_calls(requests) == 2
    assert "judge openai/judge decided 1 answer the rules could not read" in capsys.readouterr().out


def test_an_identical_reply_in_another_run_is_not_asked_again(run_db, tmp_path, capsys) -> None:
    db, requests = run_db
    assert main(["score", "--db", db, "--run", "r", "--judge", "openai/judge", "--json"]) == 0
    assert _judge_calls(requests) == 2
    preset = tmp_path / "p.yaml"
    assert main(["batch", str(preset), "-m", "openai/fake-vlm", "--db", db, "--run", "again", "--no-progress",
                 "--no-cache"]) == 0
    capsys.readouterr()
    assert main(["score", "--db", db, "--run", "again", "--judge", "openai/judge", "--json"]) == 0
    out = capsys.readouterr()
    assert "2 asked now (2 from the cache)" in out.err and _judge_calls(requests) == 2
    assert json.loads(out.out)["judge"]["decided"] == 1


def test_export_and_report_take_the_judge(run_db, tmp_path, capsys) -> None:
    db, requests = run_db
    out = tmp_path / "ds"
    assert main(["export", "--db", db, "--run", "r", "--format", "csv", "--out", str(out),
                 "--judge", "openai/judge"]) == 0
    with (out / "data.csv").open(encoding="utf-8") as f:
        rows = {r["item_id"]: r for r in csv.DictReader(f)}
    assert rows["q1"]["parsed"] == "B" and rows["q1"]["method"] == "judge"
    judge = json.loads(rows["q1"]["judge"])
    assert judge["model"] == "openai/judge" and judge["raw_text"] == "B" and judge["method"] == "judge"
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "## How answers were read" in card and "| `judge` | 1 |" in card and "a judge model mapped" in card
    assert "| `exact` | 1 |" in card
    page = tmp_path / "report.html"
    assert main(["report", "--db", db, "--run", "r", "--out", str(page), "--judge", "openai/judge"]) == 0
    assert "openai/judge: decided 1 answer the rules could not read" in page.read_text(encoding="utf-8")
    assert _judge_calls(requests) == 2  # the export asked; the report reused its answers


def test_judge_errors_are_one_line_and_ask_nothing(run_db, capsys) -> None:
    db, requests = run_db
    capsys.readouterr()
    with pytest.raises(SystemExit) as usage:
        main(["score", "--db", db, "--run", "r", "--judge", "openai/judge", "--parser", "legacy"])
    assert usage.value.code == 2
    assert "--judge reads the replies the robust rules cannot read" in capsys.readouterr().err
    assert main(["score", "--db", db, "--run", "r", "--judge", "nosuchprovider/x"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "judge 'nosuchprovider/x'" in err[0]
    assert _judge_calls(requests) == 0
    with pytest.raises(JudgeError, match="read-only"):
        judge_unread(Store(db, read_only=True), "r", "openai/judge")


def test_a_failed_judge_call_is_kept_as_an_error_and_asked_again(run_db, fake_openai, capsys) -> None:
    db, requests = run_db
    fake_openai.fail(500, times=100)
    capsys.readouterr()
    assert main(["score", "--db", db, "--run", "r", "--judge", "openai/judge", "--json"]) == 0
    out = capsys.readouterr()
    assert "judge call failed" in out.err and json.loads(out.out)["judge"]["decided"] == 0
    fake_openai.faults.clear()
    assert main(["score", "--db", db, "--run", "r", "--judge", "openai/judge", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["judge"]["decided"] == 1


@pytest.mark.parametrize("reply,kind,labels,expected", [
    ("B", "choice", ("A", "B"), ("B", "judge")),
    ("(A)", "choice", ("A", "B"), ("A", "judge")),
    ("The answer is B.", "choice", ("A", "B"), ("B", "judge")),
    ("NONE", "choice", ("A", "B"), (None, "judge-none")),
    ("none.", "yesno", ("yes", "no"), (None, "judge-none")),
    ("yes", "yesno", ("yes", "no"), ("yes", "judge")),
    ("red", "label", ("red", "green", "blue"), ("red", "judge")),
    ("A or B", "choice", ("A", "B"), (None, "judge-unreadable")),
    ("I think the reply is ambiguous.", "choice", ("A", "B"), (None, "judge-unreadable")),
])
def test_the_judges_own_reply_is_read_strictly(reply: str, kind: str, labels: tuple[str, ...],
                                               expected: tuple[str | None, str]) -> None:
    a = parse_fallback(reply, kind, labels)
    assert (a.choice, a.method) == expected
