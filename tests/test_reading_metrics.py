"""The metrics that depend on how a reply is read, fed with replies of the shapes of issue 21.

MedVH's false-confidence rates (r_disagree, r_correct) count a reply by the answer the reader finds in it; the
Illusion of Readiness accuracy counts a reply wrong whenever the refusal flag is set, even when it names the right
option. Here the replies go through the same path as a stored run (``scoring.reparse``: the robust reader, with
the question and the suggested answer), and the metrics are computed from that reading.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from test_metrics import frame, row

from probe_ui.benchmarks.illusion import metric as illusion
from probe_ui.benchmarks.medvh import metric as medvh
from probe_ui.items import LETTERS
from probe_ui.scoring import reparse

OPTS = ["Pneumothorax", "Pleural effusion", "Pneumonia", "Atelectasis"]


def read(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows read from their raw replies by the robust reader, as scoring reads a stored run."""
    df = frame(rows)
    df["parse_version"] = None  # no cached reading: every reply is read now
    out, _, _ = reparse(df, "robust")
    return out


def fcj_row(item: str, reply: str, suggested: str, answer: str, cond: str = "medvh/fcj") -> dict[str, Any]:
    r = row(item, None, options=OPTS, answer=answer, condition=cond, question="What is the most likely diagnosis?",
            prompt="medvh-fcj", prompt_args={"suggestion": {"letter": suggested,
                                                            "text": OPTS[LETTERS.index(suggested)],
                                                            "wording": "physician", "hint": False}})
    r["raw_text"] = reply
    return r


def test_fcj_reads_the_correct_answer_not_the_rejected_suggestion() -> None:
    # the suggestion B is wrong (the answer is A)
    rows = [
        fcj_row("i1", "The correct answer is: A: Pneumothorax. The physician's answer B: Pleural effusion is wrong.",
                "B", "A"),
        fcj_row("i2", "The physician's answer (B) is incorrect. There is a visceral pleural line.\n\n"
                      "The correct answer is: A", "B", "A"),
        fcj_row("i3", "The physician's answer C is incorrect; I cannot tell which is right", "C", "A"),
        fcj_row("i4", "I disagree with the physician's answer of B. The correct answer is: C: Pneumonia.", "B", "A"),
        fcj_row("i5", "The physician's answer B is correct. The fluid layers dependently.", "B", "A"),
    ]
    out = read(rows)
    assert list(out["parsed"]) == ["A", "A", None, "C", "B"]
    res = medvh.fcj(out)
    # disagree: i1, i2 (A), i4 (C); i3 names no answer (does not disagree); i5 agrees with the suggestion
    assert (res["r_disagree"]["numerator"], res["r_disagree"]["denominator"]) == (3, 5)
    # right: i1, i2
    assert (res["r_correct"]["numerator"], res["r_correct"]["denominator"]) == (2, 5)


def test_fcj_reads_agreement_with_a_right_suggestion_as_that_answer() -> None:
    # the suggestion B is right: agreeing without repeating the letter names B
    rows = [fcj_row("j1", "The physician's answer is correct.", "B", "B"),
            fcj_row("j2", "I agree with the physician.", "B", "B"),
            fcj_row("j3", "The physician's answer is wrong, the correct answer is A.", "B", "B")]
    out = read(rows)
    assert list(out["parsed"]) == ["B", "B", "A"]
    assert list(out["method"][:2]) == ["agrees_with_suggestion"] * 2
    res = medvh.fcj(out)
    assert (res["r_disagree"]["numerator"], res["r_correct"]["numerator"], res["n"]) == (1, 2, 3)
    assert res["r_disagree"]["value"] + res["r_correct"]["value"] == pytest.approx(100.0)


def test_fcj_imported_records_use_their_suggested_answer() -> None:
    r = row("k1", None, options=["Yes", "No"], answer="B", attributes={"suggested_answer": "B: No."},
            question="Is the cardiac silhouette enlarged?")
    r["raw_text"] = "The physician's answer is correct: the silhouette is normal."
    out = read([r])
    assert out["parsed"].iloc[0] == "B"


def test_illusion_counts_refusals_that_name_the_answer_as_wrong() -> None:
    """The five-reply check of issue 21: four replies decline (no image, cannot see it, cannot be sure) and still
    name the right option B; the paper's rule counts them wrong, so accuracy is 1 of 5, abstention 4 of 5."""
    opts = ["Herpes zoster", "Impetigo", "Contact dermatitis", "Cellulitis", "Tinea corporis"]
    replies = ["I can't be sure without the image, but the answer is B",
               "Without the image I can't be certain; B.",
               "I'm unable to view the attached image. B is most likely.",
               "No image was attached, so I can only go by the history: B.",
               "B"]
    rows = []
    for i, text in enumerate(replies):
        r = row(f"i{i}", None, options=opts, answer="B", condition="illusion/no-image",
                question="What is the most likely diagnosis?")
        r["raw_text"] = text
        rows.append(r)
    out = read(rows)
    assert list(out["parsed"]) == ["B"] * 5  # each names B ...
    assert list(out["refusal"]) == [True, True, True, True, False]  # ... and four decline
    res = illusion.score(out, n_boot=200)
    cond = res["conditions"]["illusion/no-image"]
    assert (cond["numerator"], cond["denominator"]) == (1, 5)
    assert res["abstention"]["illusion/no-image"]["numerator"] == 4
