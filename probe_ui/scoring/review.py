"""Settling the readings the reader was not sure of (issue 46): what to review, one click to settle, agreement.

Why a module: the reader keeps its best guess where a reply is unclear (:mod:`probe_ui.reading.sureness`), and a
figure is only as trustworthy as those guesses. A clinician reads each unsure reply and says what it answers; the
settlement is stored per clinician with the time (:class:`probe_ui.store.settlements.SettlementsMixin`) and
``--parser settled`` counts it in every figure. The Results tab's "To review" view and ``probe-ui review RUN``
both call these functions.

- :func:`to_review`: the readings one clinician still has to settle;
- :func:`settle`: store one settlement, checked against the item's answers;
- :func:`settler_agreement`: where two or more clinicians settled the same replies, Cohen's kappa of each pair
  (with n) and the replies they read differently;
- :func:`judge_agreement`: where a judge model read replies a clinician also settled, their kappa (with n).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import pandas as pd

from probe_ui.errors import ProbeUIError
from probe_ui.items import labels_for, suggested_letter
from probe_ui.metrics.frame import value_or_none
from probe_ui.reading.answers import extract
from probe_ui.reading.cleaning import clean_reply
from probe_ui.reading.item import get_item
from probe_ui.reading.methods import describe
from probe_ui.reading.sureness import doubts
from probe_ui.scoring import SETTLED, rater_label, records
from probe_ui.stats import cohen_kappa
from probe_ui.store.schema import NO_ANSWER

if TYPE_CHECKING:
    from probe_ui.store import Store

__all__ = ["NO_ANSWER_WORDS", "Pending", "ReviewError", "judge_agreement", "kappa_words", "pending_html", "settle",
           "settler_agreement", "to_review"]

#: how a settlement of "no answer" reads
NO_ANSWER_WORDS = "no answer"
#: what puts a reading in doubt, in plain words (:func:`probe_ui.reading.sureness.doubts`)
DOUBTS = {"refusal": "it declines", "reversal": "it changes its answer", "hedge": "it hedges",
          "negation": "a negation stands before the option's words", "contradiction": "it says both yes and no",
          "truncated": "it is cut off", "thinking": "it thinks aloud before answering",
          "long": "a long reply, read from where a word occurs",
          "generic": "it states what a finding usually looks like, not what this image shows",
          "advice": "the option's words appear only in advice on what to check",
          "affirmed": "it reads 'no' beside a finding the reply says is there",
          "body": "its reasoning argues against the answer it declares",
          "ends otherwise": "its last word is another answer",
          "revised": "it revises the answer it declared",
          "close": "the likeliest answer it gives is not far ahead of the others",
          "alternative": "it offers another answer beside this one",
          "unread language": "part of it is in a language the reader does not read",
          "denied": "a negation stands before the answer it names ('I don't think it is ...')",
          "two senses": "its answer word means yes in one language and no in another",
          "odds": "the odds it gives of the finding are even, or point to the other answer",
          "resolved": "it says the finding it names has gone, or was there only on an earlier study",
          "exception": "it calls the study normal except for a finding ('Normal apart from a small fracture')",
          "verdict only": "it only says of one thing that it is normal, absent or false ('Left kidney: normal.')",
          "low confidence": "it says it is unsure of its answer (a confidence of 50 % or less)",
          "junction": "it places the image where two body regions meet",
          "findings": "its report gives findings for each option, and the answer rests on which one is abnormal",
          "transcript": "it is laid out as a few-shot transcript of questions and answers, or echoes an example",
          "compared": "it sets the answer against another ('versus') in its last words",
          "kept two": "it says it keeps two different answers",
          "another finding": "it gives a result for a finding the question does not name",
          "deferred": "it leaves what is asked to another test or view ('would need an MRI to say', 'no lateral view "
                      "to assess')",
          "undecided": "it weighs two answers and says it cannot choose between them",
          "turns": "it denies one thing, then turns ('but ...') to what it does see",
          "other words": "it opens with the letter, then describes another option",
          "lettered names": "the options' own names hold letters (Stanford type A, hepatitis B), and so does the reply",
          "table": "a table in it marks another option as the answer, or this one as not",
          "each its own": "it gives two different answers, one for each of two things (lesions, images, views or "
                          "readers)",
          "own question": "its yes or no answers a question it asks itself on the way, not the one asked",
          "supposed": "its answer word stands only where it is denied or supposed ('not the case in an adult')",
          "something else": "its 'no' opens a note on something else ('Displacement: no change, still 5 mm')",
          "another time": "its 'none' is of another study or someone else's report ('Splenomegaly: none, "
                          "previously; now 16 cm')",
          "per side": "it gives a different result on each side ('none on the right, large on the left')",
          "other side": "it answers one side, then says the other side shows it too",
          "each described": "it describes each option in turn, and the answer is only where the list ends",
          "mislabelled": "it writes one option's words with another option's letter ('Mildly enlarged (C)')",
          "opposite": "it places the finding on the other side of what the option names ('below the carina')",
          "mimic": "it puts the finding down to something that only looks like it ('most likely a nipple shadow')",
          "example": "its closing letter is given as an example ('e.g. B') or a pointer ('cf. C')",
          "both normal": "it reads 'both sides' from a reply that calls both sides normal ('both angles are sharp')",
          "praised another": "it praises another answer in negative words ('A couldn't fit better'), or only keeps "
                             "one open ('C should not be discounted') or calls it only part of the answer "
                             "('A would not be the whole story')"}


@dataclass(frozen=True)
class Pending:
    """One reading to settle: the reply, the item's answers, the reader's guess and why it is unsure."""

    response_id: int
    run: str
    model: str
    item_id: str
    condition: str
    question: str
    reply: str
    answers: list[tuple[str, str]]  # (label, words): ("B", "B: Pleural effusion"), ("yes", "yes")
    guess: str | None  # the reader's best guess (a label), None when it read no answer
    why: list[str] = field(default_factory=list)  # plain words
    settled_by: dict[str, str] = field(default_factory=dict)  # who settled it already, and how

    def words(self, label: str | None) -> str:
        """A label as the clinician sees it ("B: Pleural effusion"; "no answer")."""
        if not label:
            return NO_ANSWER_WORDS
        return dict(self.answers).get(label, label)


def _answers(kind: str, options: tuple[str, ...]) -> list[tuple[str, str]]:
    labels = labels_for(kind, options)
    if kind == "choice":
        return [(lab, f"{lab}: {opt}") for lab, opt in zip(labels, options)]
    return [(lab, lab) for lab in labels]


def _why(row: dict[str, Any], kind: str, options: tuple[str, ...]) -> list[str]:
    """Why the reader is not sure of this reading, in plain words."""
    text = value_or_none(row.get("raw_text")) or ""
    question = value_or_none(row.get("question"))
    ans = extract(text, kind, labels_for(kind, options), options, question=question,
                  suggested=suggested_letter(row.get("prompt_args"), row.get("attributes")))
    item = get_item(kind, labels_for(kind, options), options, question or "")
    # judged on the reply as the reader cleans it (template tokens and emphasis gone), as its sureness was
    found = [DOUBTS.get(d, d) for d in doubts(clean_reply(text), item, ans.method, ans.choice, refusal=ans.refusal)]
    if ans.choice is None:
        found.insert(0, f"no answer read: {describe(ans.method)}")
    elif not found:
        found.append(f"read by a rule that guesses: {describe(ans.method)}")
    return found


def to_review(df: pd.DataFrame, user: str = "", verified: bool | None = None) -> list[Pending]:
    """The readings of a scored table (:func:`probe_ui.scoring.scored_answers`, any parser) that ``user`` has
    still to settle: those the reader was not sure of, that this clinician has not settled (another clinician's
    settlement does not take a reply off this one's list: two clinicians settle independently). Ordered by
    model, item and condition."""
    if df.empty or "reading" not in df.columns:
        return []
    me = rater_label(user, verified)
    out = []
    candidates = df[df["reading"].isin(["unsure", SETTLED])]
    for row in records(candidates):
        got = row.get("settled_by")
        settled_by: dict[str, str] = got if isinstance(got, dict) else {}
        if me in settled_by:
            continue
        if row["reading"] == SETTLED and row.get("sure") is True and row.get("method") != SETTLED:
            continue  # a sure reading someone settled anyway: nothing to review
        kind = str(row["kind"])
        options = tuple(value_or_none(row.get("options")) or ())
        guess = value_or_none(row.get("parsed")) if row.get("method") != SETTLED else None
        out.append(Pending(int(row["response_id"]), str(row.get("run") or ""), str(row["model"]),
                           str(row.get("item_id") or ""), str(row.get("condition") or ""),
                           str(value_or_none(row.get("question")) or ""), str(value_or_none(row.get("raw_text")) or ""),
                           _answers(kind, options), guess, _why(row, kind, options), dict(settled_by)))
    return sorted(out, key=lambda p: (p.model, p.item_id, p.condition, p.response_id))


class ReviewError(ProbeUIError, ValueError):
    """A reading that cannot be settled as asked (an answer outside the runs on the page)."""


def settle(store: Store, response_id: int, label: str | None, user: str = "", verified: bool | None = None, *,
           among: pd.DataFrame | None = None) -> None:
    """Store ``user``'s reading of one reply: ``label`` one of its item's answers, or None / "" for "the reply
    gives no answer". ``among``: the scored table the clinician is looking at; an answer outside it is refused
    (a page may only settle what it shows). A StoreError names the answer and the labels it accepts."""
    if among is not None and not among["response_id"].eq(int(response_id)).any():
        raise ReviewError(f"answer #{int(response_id)} is not one of the chosen runs' answers")
    store.settle_readings([{"response_id": response_id, "label": label or NO_ANSWER, "settled_by": user,
                            "verified": verified}])


def _as_words(label: str) -> str:
    return label if label else NO_ANSWER_WORDS


def settler_agreement(df: pd.DataFrame, *, n_boot: int = 2000, seed: int = 0) -> dict[str, Any] | None:
    """How the clinicians who settled replies agree (None when fewer than two settled any)::

        {settlers: [...], pairs: [{a, b, kappa, ci, n, observed, expected}], disagreements: [{response_id, model,
         item_id, reply, readings: {who: words}}]}

    A reply counts in a pair's kappa when both settled it; "no answer" is a category of its own."""
    if df.empty or "settled_by" not in df.columns:
        return None
    rows = df[df["settled_by"].map(lambda v: isinstance(v, dict) and bool(v))]
    votes = [dict(v) for v in rows["settled_by"]]
    settlers = sorted({who for v in votes for who in v})
    if len(settlers) < 2:
        return None
    pairs = []
    for a, b in combinations(settlers, 2):
        both = [v for v in votes if a in v and b in v]
        k = cohen_kappa([_as_words(v[a]) for v in both], [_as_words(v[b]) for v in both], n_boot=n_boot, seed=seed)
        pairs.append({"a": a, "b": b, **k})
    disagreements = [{"response_id": int(r["response_id"]), "model": str(r["model"]),
                      "item_id": str(r.get("item_id") or ""), "reply": str(value_or_none(r.get("raw_text")) or ""),
                      "readings": {who: _as_words(lab) for who, lab in sorted(v.items())}}
                     for r, v in zip(rows.to_dict("records"), votes) if len(set(v.values())) > 1]
    return {"settlers": settlers, "pairs": pairs, "disagreements": disagreements}


def judge_agreement(df: pd.DataFrame, *, n_boot: int = 2000, seed: int = 0) -> dict[str, Any] | None:
    """Where a judge model read replies (``--judge``) that clinicians also settled: Cohen's kappa between the
    judge's reading and the clinicians' latest (``{kappa, ci, n, observed, expected, judge}``), None when no reply
    has both."""
    if df.empty or "judge_parsed" not in df.columns or "settled_by" not in df.columns:
        return None
    judged = df["judge_method"].notna() & df["settled_by"].map(lambda v: isinstance(v, dict) and bool(v))
    rows = df[judged]
    if rows.empty:
        return None
    clinician = [_clinicians(v) for v in rows["settled_by"]]
    judge = [_as_words(str(value_or_none(x) or "")) for x in rows["judge_parsed"]]
    out = cohen_kappa(judge, [_as_words(c) for c in clinician], n_boot=n_boot, seed=seed)
    models = sorted({str(m) for m in rows["judge_model"].dropna()})
    return {**out, "judge": ", ".join(models)}


def _clinicians(votes: dict[str, str]) -> str:
    """The clinicians' reading of a reply: the one most of them gave (a tie: the first of those in label order)."""
    counts: dict[str, int] = {}
    for label in votes.values():
        counts[label] = counts.get(label, 0) + 1
    return min(counts, key=lambda lab: (-counts[lab], lab))


def pending_html(p: Pending, position: int, total: int) -> str:
    """One reading to settle as the Results tab shows it (escaped): where it is in the list, the model, item and
    perturbation, the question, the reply as written, the reader's guess and why it is unsure."""
    from html import escape

    reply = escape(p.reply or "(empty reply)").replace("\n", "<br>")
    why = "; ".join(escape(w) for w in p.why) or "it was not sure"
    return (f"<div class='pu-review' data-response='{p.response_id}'>"
            f"<p class='pu-why'>Reading {position} of {total} to review · {escape(p.model)} · item "
            f"{escape(p.item_id)} ({escape(p.condition)}) · answer #{p.response_id}</p>"
            f"<p><b>Question:</b> {escape(p.question)}</p>"
            f"<blockquote class='pu-reply'>{reply}</blockquote>"
            f"<p><b>The reader's guess:</b> {escape(p.words(p.guess))} <span class='pu-why'>(unsure: {why})"
            "</span></p></div>")


def kappa_words(k: dict[str, Any]) -> str:
    """Cohen's kappa with its interval and n, in words ("kappa 0.82 (95% CI 0.61-1.00), 14 replies both read").

    Under :data:`stats.ROUGH_UNITS` replies it says "rough", as accuracy does: a bootstrap over two replies gives
    "0.33 (95% CI 0.00-0.33)", an interval that only reflects how few there are."""
    from probe_ui.stats import ROUGH_UNITS

    if k.get("kappa") is None:
        return f"kappa undefined ({k.get('n', 0)} replies both read)"
    ci = f" (95% CI {k['ci'][0]:.2f}-{k['ci'][1]:.2f})" if k.get("ci") else ""
    rough = f"; rough: fewer than {ROUGH_UNITS} replies" if k["n"] < ROUGH_UNITS else ""
    return f"kappa {k['kappa']:.2f}{ci}, {k['n']} replies both read{rough}"
