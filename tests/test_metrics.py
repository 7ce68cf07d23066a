"""Paper metrics on small hand-computed tables (docs/reference.md §4), the statistics helpers, detection, and one run
through the real store.

Every expected number below is worked out by hand in the comment next to it.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from probe_ui import stats
from probe_ui.benchmarks.illusion import metric as illusion
from probe_ui.benchmarks.medblink import metric as medblink
from probe_ui.benchmarks.mediconfusion import metric as mediconfusion
from probe_ui.benchmarks.medvh import metric as medvh
from probe_ui.benchmarks.probmed import metric as probmed
from probe_ui.metrics import (
    accuracy_by_model,
    circular_eval,
    detect_families,
    flip_rate,
    group_consistency,
    groups,
    paper_metrics,
    same_option_under_shuffles,
)

ROOT = Path(__file__).resolve().parent.parent
LETTERS = "ABCDEFGH"


# --------------------------------------------------------------------------------------------------------------
# table builder: the columns of Store.answers_frame(run_id, full=True)
# --------------------------------------------------------------------------------------------------------------

def row(item: str, parsed: str | None, *, kind: str = "choice", options: list[str] | None = None,
        answer: str | None = None, condition: str = "original", model: str = "m", prompt: str = "default",
        sample: int = 0, group: str | None = None, item_group: str | None = None, category: list[str] | None = None,
        tags: list[str] | None = None, attributes: dict[str, Any] | None = None,
        prompt_args: dict[str, Any] | None = None, source: str = "presets/test.yaml", refusal: bool = False,
        error: str | None = None, question: str = "q?", variant: str | None = None) -> dict[str, Any]:
    """One answer row. ``answer`` is the correct label (letter for choice, yes/no, label word)."""
    if kind == "choice":
        options = options if options is not None else ["x", "y"]
        labels = list(LETTERS[: len(options)])
        answer_text = options[LETTERS.index(answer)] if answer is not None else None
    elif kind == "yesno":
        options, labels, answer_text = [], ["yes", "no"], answer
    else:
        options = options or []
        labels, answer_text = options, answer
    invalid = parsed is None
    correct = None if answer is None else (not invalid and parsed == answer)
    return {
        "response_id": 0, "model": model, "prompt": prompt, "sample": sample,
        "variant_id": variant or f"{item}|{condition}", "parsed": parsed, "method": "test", "invalid": invalid,
        "refusal": refusal, "correct": correct, "error": error, "latency_s": 0.1, "input_tokens": 1,
        "output_tokens": 1, "cost": 0.0, "item_id": item, "source": source, "condition": condition,
        "group_id": group or item, "item_group": item_group, "kind": kind, "answer_label": answer,
        "n_labels": len(labels), "raw_text": parsed, "question": question, "options": options,
        "answer": answer_text, "category": category or [], "tags": tags or [], "attributes": attributes or {},
        "prompt_args": prompt_args,
    }


def frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df["response_id"] = np.arange(len(df))
    return df


def val(m: dict[str, Any]) -> float | None:
    return None if m["value"] is None else round(m["value"], 4)


# --------------------------------------------------------------------------------------------------------------
# MediConfusion
# --------------------------------------------------------------------------------------------------------------

def mc_pair(p: str, c1: str | None, c2: str | None, cat1: list[str], cat2: list[str], *, a1: str = "A", a2: str = "B",
            condition: str = "original", options: list[str] | None = None, model: str = "m") -> list[dict[str, Any]]:
    opts = options or [f"opt a {p}", f"opt b {p}"]
    q = f"question {p}?"
    return [row(f"{p}-1", c1, options=opts, answer=a1, item_group=p, category=cat1, question=q, condition=condition,
                attributes={"pair_member": 1}, model=model),
            row(f"{p}-2", c2, options=opts, answer=a2, item_group=p, category=cat2, question=q, condition=condition,
                attributes={"pair_member": 2}, model=model)]


def test_mediconfusion_totals_and_category_weighting() -> None:
    rows = (mc_pair("p1", "A", "B", ["Cerebral", "Vascular"], ["Cerebral"])  # both right
            + mc_pair("p2", "A", "A", ["Cardiac"], ["Cerebral"])  # confused (same letter), image 1 right
            + mc_pair("p3", None, "A", ["Cardiac"], ["Spinal"]))  # image 1 invalid, image 2 wrong
    res = mediconfusion.score(frame(rows))
    assert res["pairing"] == "item_group" and res["pairs"] == 3
    # set 1/3; individual (2 + 1 + 0)/6; confusion: pairs with both valid = p1, p2 → p2 confused → 1/2;
    # invalid 1/6; precision = both right among valid non-confused pairs = 1/1
    assert (res["set_accuracy"]["numerator"], res["set_accuracy"]["denominator"]) == (1, 3)
    assert (res["individual_accuracy"]["numerator"], res["individual_accuracy"]["denominator"]) == (3, 6)
    assert (res["confusion"]["numerator"], res["confusion"]["denominator"]) == (1, 2)
    assert (res["invalid"]["numerator"], res["invalid"]["denominator"]) == (1, 6)
    assert (res["precision"]["numerator"], res["precision"]["denominator"]) == (1, 1)
    assert res["set_accuracy"]["random"] == 25.0 and res["individual_accuracy"]["random"] == 50.0
    assert res["confusion"]["random"] == 50.0
    cat = res["per_category"]
    # Cerebral: images p1-1, p1-2, p2-2 → incidence 3. Set: p1 both right adds 2 (both images carry Cerebral),
    # p2 adds 0 → 2/3. Individual: p1-1, p1-2 right, p2-2 wrong → 2/3. Confusion: p2 confused adds 1 (cat_1 +
    # cat_2 holds Cerebral once), valids: p1 adds 2, p2 adds 1 → 1/3.
    assert (cat["Cerebral"]["set_accuracy"]["numerator"], cat["Cerebral"]["set_accuracy"]["denominator"]) == (2, 3)
    assert cat["Cerebral"]["individual_accuracy"]["numerator"] == 2
    assert (cat["Cerebral"]["confusion"]["numerator"], cat["Cerebral"]["confusion"]["denominator"]) == (1, 3)
    # Cardiac: images p2-1 (right), p3-1 (invalid) → incidence 2; set 0/2; individual 1/2; invalid 1/2;
    # confusion: p2 confused and valid → 1/1 (p3 not valid)
    c = cat["Cardiac"]
    assert (c["set_accuracy"]["numerator"], c["set_accuracy"]["denominator"]) == (0, 2)
    assert (c["individual_accuracy"]["numerator"], c["invalid"]["numerator"]) == (1, 1)
    assert (c["confusion"]["numerator"], c["confusion"]["denominator"]) == (1, 1)
    # Vascular appears only on p1-1: set adds 1 (p1 both right) over incidence 1
    assert (cat["Vascular"]["set_accuracy"]["numerator"], cat["Vascular"]["set_accuracy"]["denominator"]) == (1, 1)
    # Spinal: p3-2 wrong, pair not valid → confusion undefined
    assert cat["Spinal"]["confusion"]["value"] is None and cat["Spinal"]["individual_accuracy"]["numerator"] == 0


def test_mediconfusion_gpt4o_sanity_figures() -> None:
    """docs/reference.md §4 (published figures): GPT-4o 18.75 set / 56.25 individual / 75.00 confusion on 176
    pairs = 33 pairs both right, 132 pairs with one right (same letter twice: confused), 11 both wrong (different
    letters)."""
    rows = []
    for i in range(176):
        c1, c2 = ("A", "B") if i < 33 else (("A", "A") if i < 165 else ("B", "A"))
        rows += mc_pair(f"p{i}", c1, c2, ["Cerebral"], ["Vascular"])
    res = mediconfusion.score(frame(rows))
    assert (val(res["set_accuracy"]), val(res["individual_accuracy"]), val(res["confusion"])) == (18.75, 56.25, 75.0)
    assert val(res["invalid"]) == 0.0


def test_mediconfusion_statistics_counts_and_dropped_groups() -> None:
    rows = mc_pair("p1", "A", "B", ["Cerebral"], ["Cerebral"])
    rows += [row("lonely", "A", options=["u", "v"], answer="A", item_group="p9")]  # one image only
    # a hallucination/baseline pair (different option sets) is not a confusing pair
    rows += [row("h", "A", options=["u", "None of the above"], answer="B", item_group="nota"),
             row("b", "A", options=["u", "w", "None of the above"], answer="A", item_group="nota")]
    res = mediconfusion.score(frame(rows), category_counts={"Cerebral": 79})
    assert res["pairs"] == 1 and res["pairs_dropped"] == 2
    # per-category denominators from statistics.json: set adds 2 over 79 images
    assert (res["per_category"]["Cerebral"]["set_accuracy"]["numerator"],
            res["per_category"]["Cerebral"]["set_accuracy"]["denominator"]) == (2, 79)


def test_mediconfusion_pair_member_order_and_partner_suite() -> None:
    # pair_member decides image 1 / image 2 whatever the row order; totals are symmetric anyway
    rows = list(reversed(mc_pair("p1", "A", "A", ["Cerebral"], ["Cardiac"])))
    res = mediconfusion.score(frame(rows))
    assert res["confusion"]["numerator"] == 1
    # the mediconfusion-pair suite: the item's original and its partner-image variant form the pair
    opts = ["ct", "mri"]
    suite = [row("s1", "A", options=opts, answer="A", category=["Cerebral"]),
             row("s1", "A", options=opts, answer="B", condition="mediconfusion-pair/partner-image",
                 category=["Cerebral"])]
    res = mediconfusion.score(frame(suite))
    assert res["pairing"] == "partner-image" and res["pairs"] == 1
    assert (res["set_accuracy"]["numerator"], res["confusion"]["numerator"]) == (0, 1)


def test_mediconfusion_per_condition_compares_option_text() -> None:
    # under a shuffle the two images may show the options in different orders: "A" on image 1 and "B" on
    # image 2 can be the same option text (confused) although the letters differ
    rows = mc_pair("p1", "A", "B", ["Cerebral"], ["Cerebral"])
    shuffled = mc_pair("p1", "A", "A", ["Cerebral"], ["Cerebral"], condition="illusion/shuffle")
    shuffled[1].update(options=["opt b p1", "opt a p1"], answer_label="A", answer="opt b p1", parsed="B",
                       correct=False)
    res = mediconfusion.score(frame(rows + shuffled))
    pc = res["per_condition"]["illusion/shuffle"]
    assert pc["confusion"]["numerator"] == 1 and pc["set_accuracy"]["numerator"] == 0


# --------------------------------------------------------------------------------------------------------------
# ProbMed
# --------------------------------------------------------------------------------------------------------------

def pm_rows(records: list[tuple[int, str, str, bool]], image_type: str = "ct scan_abdomen",
            model: str = "m") -> list[dict[str, Any]]:
    out = []
    for n, (img, qa, gt, ok) in enumerate(records):
        parsed = gt if ok else ("no" if gt == "yes" else "yes")
        out.append(row(f"{image_type}-{img}-{qa}-{n}", parsed, kind="yesno", answer=gt, model=model,
                       attributes={"image_id": img, "image_type": image_type, "qa_type": qa, "order": n}))
    return out


# three images of one type, in file order, with the quirks of the original code
QUIRKS = [
    # image 1: modality pair (hallu wrong), organ pair right, abnormality right,
    # entity_gt_0, entity_hallu_1 (index does not match the last gt: skipped), entity_gt_1, entity_hallu_1 (wrong),
    # one grounding pair right
    (1, "modality_gt", "yes", True), (1, "modality_hallu", "no", False),
    (1, "body_part_gt", "yes", True), (1, "body_part_hallu", "no", True),
    (1, "abnormality", "yes", True),
    (1, "entity_gt_0", "yes", True), (1, "entity_hallu_1", "no", True),
    (1, "entity_gt_1", "yes", True), (1, "entity_hallu_1", "no", False),
    (1, "grounding_gt_0", "yes", True), (1, "grounding_hallu_0", "no", True),
    # image 2 (normal): modality pair right, a lone organ gt (dropped: not the last image), abnormality right,
    # the lone entity_hallu right; no grounding (an empty list that still weighs)
    (2, "modality_gt", "yes", True), (2, "modality_hallu", "no", True),
    (2, "body_part_gt", "yes", True),
    (2, "abnormality", "no", True),
    (2, "entity_hallu", "no", True),
    # image 3 (the last of its type): ONE modality question (kept by the original: no length check at the end),
    # organ pair right, abnormality wrong, no entity/grounding
    (3, "modality_gt", "yes", False),
    (3, "body_part_gt", "yes", True), (3, "body_part_hallu", "no", True),
    (3, "abnormality", "yes", False),
]


def test_probmed_legacy_quirks() -> None:
    res = probmed.score(frame(pm_rows(QUIRKS)), legacy=True)
    # modality: img1 [1,0] → all 0 / first 1; img2 [1,1] → 1 / 1; img3 [0] (last image, kept) → 0 / 0
    assert val(res["modality"]["acc"]) == round(100 / 3, 4)
    assert val(res["modality"]["acc_without_adversarial"]) == round(200 / 3, 4)
    assert res["modality"]["acc"]["denominator"] == 3
    # organ: img1 [1,1]; img2 [1] dropped (len 1, not last); img3 [1,1] → 2/2, weight 2
    assert (val(res["body_part"]["acc"]), res["body_part"]["acc"]["denominator"]) == (100.0, 2)
    # abnormality 2/3, weight 3
    assert (val(res["abnormality"]["acc"]), res["abnormality"]["acc"]["denominator"]) == (round(200 / 3, 4), 3)
    # entity: img1 one pair [gt_1 right, hallu_1 wrong] (the first hallu_1 skipped) → 0 / 1; img2 lone → 1 / 1;
    # img3 empty (not in the accuracy) → acc 1/2, without adversarial 2/2; weight = ALL 3 images
    assert (val(res["entity"]["acc"]), val(res["entity"]["acc_without_adversarial"])) == (50.0, 100.0)
    assert res["entity"]["acc"]["denominator"] == 3
    # grounding: img1 one right pair → 1/1; weight 3 (images 2 and 3 have empty lists)
    assert (val(res["grounding"]["acc"]), res["grounding"]["acc"]["denominator"]) == (100.0, 3)
    # overall = (33.33·3 + 100·2 + 66.67·3 + 50·3 + 100·3) / 14 = 950 / 14;
    # without adversarial = (66.67·3 + 100·2 + 100·3 + 100·3) / 11 = 1000 / 11
    assert val(res["overall"]["acc"]) == round(950 / 14, 4)
    assert val(res["overall"]["acc_without_adversarial"]) == round(1000 / 11, 4)
    assert res["overall"]["acc"]["denominator"] == 14 and res["overall"]["acc"]["ci"] is None
    assert res["per_image_type"]["ct scan_abdomen"]["entity"]["acc"]["value"] == 50.0
    assert res["legacy"] is True and res["images"] == 3


def test_probmed_clean_definition() -> None:
    res = probmed.score(frame(pm_rows(QUIRKS)))
    # modality: img1 0, img2 1, img3 dropped (no hallu) → 1/2; organ img1, img3 → 2/2; abnormality 2/3;
    # entity: img1 unit 1 = gt_1 + both hallu_1 (one wrong) → 0 (unit 0 has no hallu: dropped);
    # img2 lone → 1 → 1/2;
    # grounding 1/1. Overall pooled: (1 + 2 + 2 + 1 + 1) / (2 + 2 + 3 + 2 + 1) = 7/10
    assert (res["modality"]["acc"]["numerator"], res["modality"]["acc"]["denominator"]) == (1, 2)
    assert (res["body_part"]["acc"]["numerator"], res["body_part"]["acc"]["denominator"]) == (2, 2)
    assert (res["entity"]["acc"]["numerator"], res["entity"]["acc"]["denominator"]) == (1, 2)
    assert (res["overall"]["acc"]["numerator"], res["overall"]["acc"]["denominator"]) == (7, 10)
    assert (res["overall"]["acc_without_adversarial"]["numerator"],
            res["overall"]["acc_without_adversarial"]["denominator"]) == (7, 7)
    assert res["overall"]["acc"]["ci"] is not None
    # random references: a yes/no pair 25 %, abnormality 50 %, entity = mean(0.5³ (gt_1 and its two hallu_1
    # questions), 0.5 (lone)) = 31.25
    assert res["modality"]["acc"]["random"] == 25.0 and res["abnormality"]["acc"]["random"] == 50.0
    assert res["entity"]["acc"]["random"] == 31.25


def test_probmed_legacy_weights_across_image_types_and_split_images() -> None:
    a = pm_rows([(1, "modality_gt", "yes", True), (1, "modality_hallu", "no", True),
                 (1, "abnormality", "yes", True), (1, "entity_gt_0", "yes", True), (1, "entity_hallu_0", "no", True),
                 (1, "grounding_gt_0", "yes", True), (1, "grounding_hallu_0", "no", True)], image_type="x-ray_chest")
    b_records = []
    for img in (5, 6, 7):
        b_records += [(img, "modality_gt", "yes", False), (img, "modality_hallu", "no", True),
                      (img, "abnormality", "yes", True), (img, "entity_gt_0", "yes", True),
                      (img, "entity_hallu_0", "no", True), (img, "grounding_gt_0", "yes", True),
                      (img, "grounding_hallu_0", "no", True)]
    b = pm_rows(b_records, image_type="mri_brain")
    res = probmed.score(frame(a + b), legacy=True)
    # modality: chest 100 (weight 1), brain 0 (weight 3) → 25
    assert val(res["modality"]["acc"]) == 25.0
    assert val(res["per_image_type"]["mri_brain"]["modality"]["acc"]) == 0.0
    # the same image id split by another image's records counts as two images in the legacy walk
    split = pm_rows([(1, "modality_gt", "yes", True), (1, "modality_hallu", "no", True),
                     (2, "modality_gt", "yes", True), (2, "modality_hallu", "no", True),
                     (1, "abnormality", "yes", True),
                     (1, "entity_gt_0", "yes", True), (1, "entity_hallu_0", "no", True)])
    legacy = probmed.score(frame(split), legacy=True)
    clean = probmed.score(frame(split))
    assert legacy["images"] == 2  # distinct ids
    # legacy: runs 1, 2, 1 → entity weight = 3 runs, modality weight 2 (run 3 has no modality question)
    assert legacy["entity"]["acc"]["denominator"] == 3 and legacy["modality"]["acc"]["denominator"] == 2
    assert clean["entity"]["acc"]["denominator"] == 1


def test_probmed_ignores_other_conditions_and_reads_the_suite() -> None:
    rows = pm_rows([(1, "modality_gt", "yes", True), (1, "modality_hallu", "no", True)])
    rotated = [dict(r, condition="rotations/rot90", variant_id=r["variant_id"] + "r", correct=False) for r in rows]
    suite = [dict(r, condition="probmed-pairs/modality-" + r["attributes"]["qa_type"].split("_")[1],
                  variant_id=r["variant_id"] + "s", item_id="it", group_id="it",
                  attributes={k: v for k, v in r["attributes"].items() if k != "image_id"}) for r in rows]
    res = probmed.score(frame(rows + rotated))
    assert (res["modality"]["acc"]["numerator"], res["modality"]["acc"]["denominator"]) == (1, 1)
    res = probmed.score(frame(suite))  # image = group_id when image_id is missing
    assert (res["modality"]["acc"]["numerator"], res["modality"]["acc"]["denominator"]) == (1, 1)


# --------------------------------------------------------------------------------------------------------------
# MedBLINK
# --------------------------------------------------------------------------------------------------------------

def test_medblink_tasks_macro_and_random() -> None:
    rows = []
    # task "contrast" (yes/no): 3 of 4 right; task "depth" (3 labels): 1 of 2 right
    for i, ok in enumerate([True, True, True, False]):
        rows.append(row(f"c{i}", "yes" if ok else "no", kind="yesno", answer="yes", attributes={"task": "contrast"}))
    labels = ["red", "green", "blue"]
    rows.append(row("d0", "red", kind="label", options=labels, answer="red", category=["depth"]))
    rows.append(row("d1", None, kind="label", options=labels, answer="blue", category=["depth"]))
    res = medblink.score(frame(rows))
    assert val(res["tasks"]["contrast"]) == 75.0 and val(res["tasks"]["depth"]) == 50.0
    # macro = unweighted mean (75 + 50) / 2, not the pooled 4/6
    assert val(res["macro"]) == 62.5 and res["macro"]["denominator"] == 2
    assert res["tasks"]["contrast"]["random"] == 50.0 and res["tasks"]["depth"]["random"] == round(100 / 3, 4)
    assert res["random"] == round((50 + 100 / 3) / 2, 4) and res["expert"] == 96.4


# --------------------------------------------------------------------------------------------------------------
# MedVH
# --------------------------------------------------------------------------------------------------------------

def test_medvh_characterization_matches_paper_table5() -> None:
    # GPT-4V wrongful image: acc_h 0.978, acc_b 0.244 → characterization 0.391 (paper Table 5)
    rows = [row(f"h{i}", "C" if i < 489 else "A", options=["a", "b", "c"], answer="C",
                condition="medvh/wrongful-image") for i in range(500)]
    rows += [row(f"b{i}", "A" if i < 122 else "B", options=["a", "b", "c"], answer="A",
                 condition="medvh/wrongful-image-baseline") for i in range(500)]
    res = medvh.score(frame(rows))["wrongful-image"]
    assert (val(res["acc_h"]), val(res["acc_b"])) == (97.8, 24.4)
    assert round(res["characterization"]["value"], 1) == 39.1
    lo, hi = res["characterization"]["ci"]
    assert lo <= res["characterization"]["value"] <= hi
    # weights: (w_h + w_b) · h · b / (w_h · b + w_b · h)
    w = medvh.score(frame(rows), w_h=0.8, w_b=0.2)["wrongful-image"]["characterization"]["value"]
    assert w == pytest.approx(97.8 * 24.4 / (0.8 * 24.4 + 0.2 * 97.8))
    assert medvh.characterization(0.0, 50.0) == 0.0


def test_medvh_tasks_from_attributes_not_from_perturbed_copies() -> None:
    a_h = {"medvh_task": "nota", "version": "hallucination"}
    a_b = {"medvh_task": "nota", "version": "baseline"}
    rows = [row("h1", "C", options=["a", "b", "None of the above"], answer="C", attributes=a_h, item_group="g1"),
            row("h2", "A", options=["a", "b", "None of the above"], answer="C", attributes=a_h, item_group="g2"),
            row("b1", "B", options=["a", "b", "c", "None of the above"], answer="B", attributes=a_b, item_group="g1"),
            row("b2", "B", options=["a", "b", "c", "None of the above"], answer="B", attributes=a_b, item_group="g2"),
            # a rotated copy inherits the attributes but is not a MedVH row
            row("h1", "A", options=["a", "b", "None of the above"], answer="C", attributes=a_h,
                condition="rotations/rot90")]
    res = medvh.score(frame(rows))
    # acc_h 1/2 = 50, acc_b 2/2 = 100 → 2·50·100/150 = 66.67
    assert (val(res["nota"]["acc_h"]), val(res["nota"]["acc_b"])) == (50.0, 100.0)
    assert round(res["nota"]["characterization"]["value"], 2) == 66.67


def test_medvh_fcj_rates() -> None:
    opts = ["a", "b", "c"]

    def fcj(item: str, parsed: str | None, sug: str, answer: str = "A", cond: str = "medvh/fcj") -> dict[str, Any]:
        return row(item, parsed, options=opts, answer=answer, condition=cond,
                   prompt_args={"suggestion": {"letter": sug, "text": opts[LETTERS.index(sug)],
                                               "wording": "physician", "hint": False}})

    rows = [fcj("i1", "A", "B"),   # disagrees, names the right option
            fcj("i2", "C", "B"),   # disagrees, wrong alternative
            fcj("i3", "B", "B"),   # agrees with the wrong suggestion
            fcj("i4", None, "B"),  # no final answer: does not disagree, not correct
            row("i1", "A", options=opts, answer="A"), row("i2", "B", options=opts, answer="A"),
            row("i3", "A", options=opts, answer="A"), row("i4", "A", options=opts, answer="A"),
            row("other", "A", options=opts, answer="A")]  # no FCJ variant: not in the baseline
    res = medvh.fcj(frame(rows))
    assert (res["r_disagree"]["numerator"], res["r_disagree"]["denominator"]) == (2, 4)
    assert (res["r_correct"]["numerator"], res["r_correct"]["denominator"]) == (1, 4)
    assert (res["r_baseline"]["numerator"], res["r_baseline"]["denominator"]) == (3, 4)
    assert set(res["by_suggestion"]) == {"wrong"}
    # a correct suggestion: agreeing is right, so r_disagree + r_correct = 100 % (paper Table 2, middle columns)
    right = [fcj("j1", "A", "A"), fcj("j2", "B", "A"), fcj("j3", "A", "A")]
    res = medvh.fcj(frame(right))
    assert val(res["r_disagree"]) + val(res["r_correct"]) == 100.0
    # imported MedVH records carry attributes.suggested_answer ("B: No.")
    imp = [row("k1", "A", options=["Yes", "No"], answer="A", attributes={"suggested_answer": "B: No."}),
           row("k2", "B", options=["Yes", "No"], answer="A", attributes={"suggested_answer": "B: No. "})]
    res = medvh.fcj(frame(imp))
    assert (res["r_disagree"]["numerator"], res["r_correct"]["numerator"], res["n"]) == (1, 1, 2)


# --------------------------------------------------------------------------------------------------------------
# Illusion of Readiness
# --------------------------------------------------------------------------------------------------------------

def ill_rows(n: int, pattern: dict[str, list[bool]], source: str = "nejm", n_opts: int = 5,
             tags: list[str] | None = None, refuse: dict[str, list[bool]] | None = None) -> list[dict[str, Any]]:
    opts = [f"o{k}" for k in range(n_opts)]
    out = []
    for cond, oks in pattern.items():
        for i in range(n):
            ok = oks[i % len(oks)]
            ref = bool(refuse and cond in refuse and refuse[cond][i % len(refuse[cond])])
            parsed = None if ref else ("A" if ok else "B")
            out.append(row(f"{source}{i}", parsed, options=opts, answer="A", condition=cond, source=source,
                           tags=tags, refusal=ref))
    return out


def test_illusion_conditions_ci_and_paired_difference() -> None:
    rows = ill_rows(40, {"original": [True, True, True, False], "illusion/no-image": [True, False, False, False],
                         "illusion/shuffle": [True, True, True, False]})
    res = illusion.score(frame(rows), n_boot=1000, seed=3)
    orig = res["conditions"]["original"]
    assert val(orig) == 75.0 and orig["random"] == 20.0
    assert orig["ci"][0] <= orig["value"] <= orig["ci"][1]
    # same seed → same numbers; another seed → (almost surely) another interval
    again = illusion.score(frame(rows), n_boot=1000, seed=3)
    assert again == res
    assert illusion.score(frame(rows), n_boot=1000, seed=4)["conditions"]["original"]["ci"] != orig["ci"]
    pd_ = res["paired_difference"]
    # no-image: 25 % vs 75 % on the same 40 items → −50 pp, all 20 changes are 1 → 0: p tiny
    assert pd_["illusion/no-image"]["pp"] == -50.0 and pd_["illusion/no-image"]["n_pairs"] == 40
    assert pd_["illusion/no-image"]["p_value"] < 1e-4
    lo, hi = pd_["illusion/no-image"]["ci"]
    assert lo <= -50.0 <= hi < 0
    # identical answers: difference 0, p = 1
    assert pd_["illusion/shuffle"]["pp"] == 0.0 and pd_["illusion/shuffle"]["p_value"] == 1.0


def test_sign_flip_pvalue_exact_matches_enumeration() -> None:
    d = np.array([1, 1, 1, -1, 0, 1, 0, 1], dtype=float)
    p, how = illusion.sign_flip_pvalue(d, 100, np.random.default_rng(0))
    obs = abs(d.mean())
    flips = [abs((np.array(s) * d).mean()) >= obs - 1e-12 for s in itertools.product((-1, 1), repeat=len(d))]
    assert how == "exact" and p == pytest.approx(np.mean(flips))
    # non-integer differences → Monte Carlo, seeded and close to the enumeration
    d2 = np.array([0.5, 1, 0.25, -0.5, 1, 0.75, 0.5, 1])
    p2, how2 = illusion.sign_flip_pvalue(d2, 20000, np.random.default_rng(1))
    flips2 = [abs((np.array(s) * d2).mean()) >= abs(d2.mean()) - 1e-12
              for s in itertools.product((-1, 1), repeat=len(d2))]
    assert how2 == "monte-carlo" and p2 == pytest.approx(np.mean(flips2), abs=0.01)
    assert illusion.sign_flip_pvalue(np.zeros(5), 10, np.random.default_rng(0)) == (1.0, "exact")


def test_bootstrap_means_multinomial_matches_resampling() -> None:
    rng = np.random.default_rng(0)
    v = rng.integers(0, 2, 300).astype(float)
    fast = stats.bootstrap_means(v, 20000, np.random.default_rng(1))
    slow = v[np.random.default_rng(2).integers(0, len(v), (20000, len(v)))].mean(axis=1)
    assert fast.mean() == pytest.approx(slow.mean(), abs=2e-3)
    assert fast.std() == pytest.approx(slow.std(), rel=0.05)
    # many distinct values → index resampling path
    w = rng.normal(size=500)
    b = stats.bootstrap_means(w, 300, np.random.default_rng(3))
    assert len(b) == 300 and b.std() == pytest.approx(w.std() / np.sqrt(len(w)), rel=0.2)


def test_illusion_abstention_and_fragility_formulas() -> None:
    pattern = {
        "original": [True, True, True, False],          # 75 %
        "illusion/no-image": [True, False, False, False],  # 25 %
        # text only and re-ordered: right on items 0, 8, 16 of 20 = 15 %
        "illusion/no-image+shuffle": [True, False, False, False, False, False, False, False],
        "illusion/shuffle": [True, True, False, False],    # 50 %
        "illusion/1R": [True, True, True, True],           # 100 %
        "illusion/2R": [True, True, True, False],          # 75 %
        "illusion/unknown": [True, True, True, True],      # 100 %
        "illusion/substitution": [False, False, False, True],  # 25 %
    }
    rows = ill_rows(20, pattern, refuse={"illusion/no-image": [False, True, True, False]})
    res = illusion.score(frame(rows), n_boot=200)
    assert val(res["abstention"]["illusion/no-image"]) == 50.0  # refusals (also invalid) on half the rows
    assert val(res["abstention"]["original"]) == 0.0
    fr = res["fragility"]
    assert list(fr) == ["T1", "T2", "T3", "T4", "T5", "T3-with-image"]
    # T1 = (0.75 − 0.25) / 0.75; T2 = (0.25 − 0.2) / 0.8; T5 = (0.75 − 0.25) / 0.75
    assert fr["T1"]["F"] == pytest.approx(2 / 3, abs=1e-6)
    assert fr["T2"]["F"] == pytest.approx(0.0625, abs=1e-6)
    assert fr["T5"]["F"] == pytest.approx(2 / 3, abs=1e-6)
    # T3 as the paper: text only, (0.25 − 0.15) / 0.25; with the image (ours, beside it): (0.75 − 0.5) / 0.75
    assert fr["T3"]["F"] == pytest.approx(0.4, abs=1e-6)
    assert fr["T3"]["inputs"] == {"A_noimage": 0.25, "A_noimage+shuffle": 0.15, "n": 20}
    assert fr["T3-with-image"]["F"] == pytest.approx(1 / 3, abs=1e-6)
    assert fr["T3-with-image"]["inputs"] == {"A_orig": 0.75, "A_shuffle": 0.5, "n": 20}
    assert [t for t, v in fr.items() if v["in_robustness"]] == ["T1", "T2", "T3", "T4", "T5"]
    # the text-only re-ordering is compared with the text-only condition, the rest with the original
    pd_ = res["paired_difference"]
    assert pd_["illusion/no-image+shuffle"]["baseline"] == "illusion/no-image"
    assert pd_["illusion/no-image+shuffle"]["pp"] == pytest.approx(-10.0)
    assert pd_["illusion/shuffle"]["baseline"] == "original" and pd_["illusion/shuffle"]["pp"] == pytest.approx(-25.0)
    # T4: G_image = mean((1 − .75)/.25, (.75 − .75)/.25) = 0.5; G_unknown = (1 − .75)/.25 = 1; no text-only kR →
    # F4 = (0.3·0.5 + 0.2·1) / 0.5 = 0.7
    assert fr["T4"]["inputs"]["components"] == {"G_image": 0.5, "G_unknown": 1.0}
    assert fr["T4"]["F"] == pytest.approx(0.7, abs=1e-6)
    doc = " ".join(illusion.__doc__.split())
    for t, v in fr.items():
        assert 0.0 <= v["F"] <= 1.0 and v["R"] == pytest.approx(1 - v["F"])
        assert v["formula"] == illusion.FORMULAS[t] and " ".join(v["formula"].split()) in doc
    # robustness: the paper's five tests only, T3-with-image left out
    assert res["robustness"] == pytest.approx(np.mean([1 - fr[t]["F"] for t in ("T1", "T2", "T3", "T4", "T5")]),
                                              abs=1e-6)


def test_illusion_abstention_is_wrong_even_when_it_names_the_right_option() -> None:
    """The paper: "Accuracy includes abstentions counted as incorrect" (T2; GPT-4o 3.4 % with ~97 % refusals)."""
    opts = ["o0", "o1", "o2", "o3", "o4"]
    rows = [row(f"i{i}", "A", options=opts, answer="A") for i in range(10)]  # all right with the image
    rows += [row(f"i{i}", "A", options=opts, answer="A", condition="illusion/no-image", refusal=True)
             for i in range(4)]  # "I can't be sure without the image, but the answer is A": wrong, and abstains
    rows += [row(f"i{i}", "A", options=opts, answer="A", condition="illusion/no-image") for i in (4, 5)]
    rows += [row(f"i{i}", "B", options=opts, answer="A", condition="illusion/no-image") for i in range(6, 10)]
    assert sum(r["correct"] for r in rows if r["condition"] != "original") == 6  # what the plain rows say
    res = illusion.score(frame(rows), n_boot=200)
    no_img = res["conditions"]["illusion/no-image"]
    assert (no_img["numerator"], no_img["denominator"], val(no_img)) == (2, 10, 20.0)
    ab = res["abstention"]["illusion/no-image"]
    assert (ab["numerator"], ab["denominator"]) == (4, 10)
    assert res["paired_difference"]["illusion/no-image"]["pp"] == pytest.approx(-80.0)
    assert res["fragility"]["T1"]["F"] == pytest.approx(0.8)  # (1.0 − 0.2) / 1.0
    # T2 against chance 1/5: (0.2 − 0.2) / 0.8 = 0 (counting the refusals as right would give 0.5)
    assert res["fragility"]["T2"]["F"] == pytest.approx(0.0)


def test_illusion_t3_reproduces_the_papers_text_only_drop() -> None:
    """Extended Data Table 5, GPT-5 on NEJM-VS (175 items): text only 37.71 % → 32.00 % after re-ordering
    (−5.7 pp); with the image 66.29 % → 70.86 % (a gain: no fragility)."""
    rows = []
    for i in range(175):
        for cond, right in (("original", i < 116), ("illusion/shuffle", i < 124), ("illusion/no-image", i < 66),
                            ("illusion/no-image+shuffle", i < 56)):
            rows.append(row(f"n{i}", "A" if right else "B", options=["a", "b", "c", "d", "e"], answer="A",
                            condition=cond))
    res = illusion.score(frame(rows), n_boot=200)
    assert val(res["conditions"]["illusion/no-image"]) == pytest.approx(37.7143, abs=1e-4)
    assert val(res["conditions"]["illusion/no-image+shuffle"]) == pytest.approx(32.0, abs=1e-4)
    assert res["paired_difference"]["illusion/no-image+shuffle"]["pp"] == pytest.approx(-5.714286, abs=1e-5)
    fr = res["fragility"]
    assert fr["T3"]["F"] == pytest.approx(10 / 66, abs=1e-6)  # (66 − 56) / 66
    assert fr["T3-with-image"]["F"] == 0.0  # 116 → 124 right: clipped
    assert fr["T4"]["R"] is None and fr["T5"]["R"] is None  # no distractor or substitution conditions here
    assert res["robustness"] == pytest.approx(np.mean([fr[t]["R"] for t in ("T1", "T2", "T3")]))


def test_text_only_reordering_is_not_a_same_option_reordering() -> None:
    """groups.same_option_under_shuffles compares re-orderings with the original; the text-only one is compared with
    the text-only condition by the illusion metric instead."""
    opts = ["dog", "eel", "cat"]
    rows = [row("i1", "A", options=opts, answer="A"),
            row("i1", "C", options=["eel", "cat", "dog"], answer="C", condition="illusion/shuffle"),
            row("i1", "A", options=["cat", "dog", "eel"], answer="B", condition="illusion/no-image+shuffle")]
    res = groups.same_option_under_shuffles(frame(rows))
    same = res["same_option"]
    assert (same["numerator"], same["denominator"]) == (1, 1)  # "dog" both times; the text-only "cat" not counted


def test_illusion_fragility_is_clipped_and_weighted_by_source() -> None:
    # accuracy rises without the image → negative drop → F1 clipped to 0; chance-level → F2 = 0
    up = ill_rows(10, {"original": [False, False, False, True], "illusion/no-image": [True, False, False, False]},
                  n_opts=2)
    fr = illusion.score(frame(up), n_boot=50)["fragility"]
    assert fr["T1"]["F"] == 0.0 and fr["T2"]["F"] == 0.0
    # two sources: nejm drop 100 % (n=10), jama drop 0 % (n=30) → F1 = 10/40 · 1 + 30/40 · 0 = 0.25
    a = ill_rows(10, {"original": [True], "illusion/no-image": [False]}, source="nejm")
    b = ill_rows(30, {"original": [True], "illusion/no-image": [True]}, source="jama")
    fr = illusion.score(frame(a + b), n_boot=50)["fragility"]
    assert fr["T1"]["F"] == pytest.approx(0.25)
    assert fr["T3"]["F"] is None and fr["T3"]["R"] is None  # no shuffle condition: undefined
    # T2 on the items tagged visual-required only: tagged 0 % right → F2 = 0 although untagged are 100 %
    t = ill_rows(10, {"illusion/no-image": [False]}, source="vs", tags=["visual-required"])
    fr = illusion.score(frame(t + b), n_boot=50)["fragility"]
    assert fr["T2"]["F"] == 0.0 and fr["T2"]["inputs"]["visual_required_only"] is True


# --------------------------------------------------------------------------------------------------------------
# group metrics
# --------------------------------------------------------------------------------------------------------------

def test_group_consistency_and_circular_eval() -> None:
    opts = ["a", "b", "c"]
    rows = [
        # item 1: right in the original and both shifts
        row("i1", "A", options=opts, answer="A"),
        row("i1", "C", options=["b", "c", "a"], answer="C", condition="circular/shift1"),
        row("i1", "B", options=["c", "a", "b"], answer="B", condition="circular/shift2"),
        # item 2: wrong under one shift
        row("i2", "A", options=opts, answer="A"),
        row("i2", "A", options=["b", "c", "a"], answer="C", condition="circular/shift1"),
        row("i2", "B", options=["c", "a", "b"], answer="B", condition="circular/shift2"),
        # item 3: a shift is missing (provider error) → incomplete
        row("i3", "A", options=opts, answer="A"),
        row("i3", "C", options=["b", "c", "a"], answer="C", condition="circular/shift1"),
        row("i3", None, options=["c", "a", "b"], answer="B", condition="circular/shift2", error="timeout"),
    ]
    df = frame(rows)
    ce = circular_eval(df)
    assert (ce["circular"]["numerator"], ce["circular"]["denominator"], ce["incomplete"]) == (1, 2, 1)
    assert ce["circular"]["random"] == round(100 / 27, 4)
    assert (ce["vanilla"]["numerator"], ce["vanilla"]["denominator"]) == (2, 2)
    gc = group_consistency(df)
    # groups with ≥ 2 scored variants: i1 (3, right), i2 (3, wrong), i3 (2 answered, right) → 2/3
    assert (gc["consistency"]["numerator"], gc["consistency"]["denominator"]) == (2, 3)
    assert gc["accuracy"]["denominator"] == 8
    by_pair = group_consistency(frame(mc_pair("p", "A", "A", [], [])), by="item_group")
    assert (by_pair["consistency"]["numerator"], by_pair["consistency"]["denominator"]) == (0, 1)


def test_flip_rate_compares_option_text_and_skips_moved_answers() -> None:
    opts = ["cat", "dog", "eel"]
    rows = [
        row("i1", "A", options=opts, answer="A"),
        # shuffled: "cat" is now C; answering C is the SAME option → no flip
        row("i1", "C", options=["dog", "eel", "cat"], answer="C", condition="illusion/shuffle"),
        row("i2", "B", options=opts, answer="A"),
        # shuffled: B is now "cat" (was "dog") → a flip although the letter is the same
        row("i2", "B", options=["eel", "cat", "dog"], answer="B", condition="illusion/shuffle"),
        # yes/no items under a rotation: "Yes" vs "yes" is the same label; invalid vs invalid is no flip
        row("y1", "yes", kind="yesno", answer="yes"),
        row("y1", "YES", kind="yesno", answer="yes", condition="rotations/rot90"),
        row("y2", None, kind="yesno", answer="yes"),
        row("y2", None, kind="yesno", answer="yes", condition="rotations/rot90"),
        # the ground truth moves (upside down): reported but not in the overall
        row("o1", "correct", kind="label", options=["correct", "upside down"], answer="correct"),
        row("o1", "upside down", kind="label", options=["correct", "upside down"], answer="upside down",
            condition="medblink-orientation/upside-down"),
    ]
    fr = flip_rate(frame(rows))
    assert (fr["conditions"]["illusion/shuffle"]["numerator"], fr["conditions"]["illusion/shuffle"]["denominator"]) \
        == (1, 2)
    assert fr["conditions"]["rotations/rot90"]["numerator"] == 0
    assert fr["answer_moved"]["medblink-orientation/upside-down"] == 100.0
    assert fr["conditions"]["medblink-orientation/upside-down"]["numerator"] == 1
    assert (fr["pairs"]["numerator"], fr["pairs"]["denominator"]) == (1, 4)
    assert (fr["overall"]["numerator"], fr["overall"]["denominator"]) == (1, 4)
    so = same_option_under_shuffles(frame(rows))
    assert (so["same_option"]["numerator"], so["same_option"]["denominator"]) == (1, 2)


# --------------------------------------------------------------------------------------------------------------
# detection, dispatcher, input types, the store
# --------------------------------------------------------------------------------------------------------------

def mixed_rows(model: str = "m") -> list[dict[str, Any]]:
    rows = []
    for p in range(3):
        rows += mc_pair(f"p{p}", "A", "B" if p else "A", ["Cerebral"], ["Cardiac"], model=model)
    rows += pm_rows([(1, "modality_gt", "yes", True), (1, "modality_hallu", "no", False),
                     (1, "abnormality", "yes", True), (1, "entity_gt_0", "yes", True),
                     (1, "entity_hallu_0", "no", True), (1, "grounding_gt_0", "yes", True),
                     (1, "grounding_hallu_0", "no", True)], model=model)
    rows += [dict(r, model=model) for r in ill_rows(4, {"original": [True, False], "illusion/no-image": [False],
                                                        "illusion/shuffle": [True, True]})]
    rows += [row("vh1", "C", options=["a", "b", "c"], answer="C", condition="medvh/nota", model=model),
             row("vh1", "A", options=["a", "b", "c"], answer="A", condition="medvh/nota-baseline", model=model)]
    rows += [row("bl1", "yes", kind="yesno", answer="yes", attributes={"task": "contrast"}, model=model)]
    return rows


def test_detect_families_and_paper_metrics() -> None:
    df = frame(mixed_rows())
    found = detect_families(df)
    assert set(found) == {"mediconfusion", "probmed", "medvh", "medblink", "illusion", "groups"}
    res = paper_metrics(df, n_boot=100)
    for fam in found:
        assert fam in res and "error" not in res[fam], (fam, res.get(fam))
    # each block names its definition: ProbMed has ours (clean) and the paper's; the others only the paper's
    assert res["probmed"]["definition"] == "clean" and res["probmed"]["legacy"] is False
    assert res["mediconfusion"]["definition"] == "paper" and res["groups"]["definition"] == "clean"
    paper = paper_metrics(df, definition="paper", n_boot=100)
    assert paper["probmed"]["definition"] == "paper" and paper["probmed"]["legacy"] is True
    assert paper["groups"]["definition"] == "clean"  # ours only: the one it has
    assert res["mediconfusion"]["pairs"] == 3
    # the illusion baseline is the original of the items asked under illusion/ conditions, not every original
    assert res["illusion"]["conditions"]["original"]["denominator"] == 4
    assert list(res["medblink"]["tasks"]) == ["contrast"]  # other presets' rows are not MedBLINK tasks
    assert res["groups"]["group_consistency"]["by_suite"].keys() == {"illusion", "medvh"}
    json.dumps(res, allow_nan=False)  # JSON-able throughout, no NaN
    # the table of one model only has one model's numbers; error rows are left out like accuracy_by_model does
    err = frame(mixed_rows() + [row("bl2", None, kind="yesno", answer="yes", attributes={"task": "contrast"},
                                    error="HTTP 500")])
    assert paper_metrics(err, n_boot=100)["medblink"]["tasks"]["contrast"]["denominator"] == 1
    assert paper_metrics(frame([])) == {"detected": {}}


def test_metrics_accept_pandas_string_columns() -> None:
    """answers_frame comes from SQL: text columns may arrive with pandas' string dtype and missing values as NaN."""
    df = frame(mixed_rows())
    for col in ("model", "prompt", "variant_id", "parsed", "item_id", "source", "condition", "group_id",
                "item_group", "kind", "answer_label", "question", "answer"):
        df[col] = df[col].astype("string")
    base = paper_metrics(frame(mixed_rows()), n_boot=100)
    res = paper_metrics(df, n_boot=100)
    assert res == base


def test_replicas_are_kept_apart() -> None:
    """Two prompts (or un-voted samples) are two replicas: pairs never mix answers across them."""
    a = mc_pair("p1", "A", "B", [], [])
    b = [dict(r, prompt="cot", variant_id=r["variant_id"]) for r in mc_pair("p1", "A", "A", [], [])]
    res = mediconfusion.score(frame(a + b))
    assert res["pairs"] == 2 and res["set_accuracy"]["numerator"] == 1 and res["confusion"]["numerator"] == 1
    s = [dict(r, sample=1) for r in mc_pair("p1", "B", "A", [], [])]
    res = mediconfusion.score(frame(a + s))
    assert res["pairs"] == 2 and res["set_accuracy"]["numerator"] == 1


def test_template_names_do_not_split_an_item() -> None:
    """The prompt column is the template used, which differs between an item's variants (FCJ rows use medvh-fcj,
    phrasing rows their own): variants answered once each still belong to one item."""
    opts = ["a", "b", "c"]
    rows = [row("i1", "A", options=opts, answer="A", prompt="medvh-mc"),
            row("i1", "B", options=opts, answer="A", condition="medvh/fcj", prompt="medvh-fcj",
                prompt_args={"suggestion": {"letter": "B", "text": "b", "wording": "physician", "hint": False}}),
            row("i1", "C", options=opts, answer="A", condition="prompt-variants/shorten",
                prompt="mediconfusion-mc/shorten")]
    fr = flip_rate(frame(rows))
    assert set(fr["conditions"]) == {"medvh/fcj", "prompt-variants/shorten"} and fr["overall"]["numerator"] == 1
    assert medvh.fcj(frame(rows))["r_baseline"]["denominator"] == 1
    assert group_consistency(frame(rows))["groups"] == 1


def test_through_the_store(tmp_path: Path) -> None:
    """Variants from a shipped preset and the suites, answers saved in a real store, read back with
    answers_frame(full=True), scored per model."""
    from probe_ui.presets import load_preset
    from probe_ui.presets.suites import expand
    from probe_ui.store import Store

    store = Store(tmp_path / "probe.db")
    run = store.ensure_run("t", 1, {})
    exp = expand(load_preset(ROOT / "presets" / "mediconfusion_pairs.yaml"), 1, ["illusion", "circular"])
    store.add_variants(run.id, exp.variants)
    rng = np.random.default_rng(0)
    for v in exp.variants:
        for model in ("a/one", "b/two"):
            gt = v.answer_label
            parsed = gt if rng.random() < 0.7 else ("A" if gt == "B" else "B")
            store.save_response({"run_id": run.id, "variant_id": v.id, "model": model, "prompt": "default",
                                 "sample": 0, "request_hash": f"{v.id}{model}", "messages": [], "settings": {},
                                 "raw_text": parsed, "parsed": parsed, "method": "test", "invalid": False,
                                 "refusal": False, "correct": None if gt is None else parsed == gt,
                                 "latency_s": 0.1, "input_tokens": 1, "output_tokens": 1, "cost": 0.0,
                                 "error": None})
    df = store.answers_frame(run.id, full=True)
    store.close()
    acc = accuracy_by_model(df)
    for model, g in df.groupby("model"):
        res = paper_metrics(g, n_boot=100)
        assert {"mediconfusion", "illusion", "groups"} <= set(res["detected"])
        assert res["mediconfusion"]["pairs"] == 8
        assert res["illusion"]["conditions"]["original"]["denominator"] == 16
        assert res["groups"]["circular_eval"]["items"] == 16
        # the plain accuracy of the original condition agrees with accuracy over the same rows
        orig = g[g["condition"] == "original"]
        assert res["illusion"]["conditions"]["original"]["numerator"] == int(orig["correct"].astype(bool).sum())
        assert acc[model]["n"] == len(g)
        json.dumps(res, allow_nan=False)


def test_benchmark_table_scores_without_errors() -> None:
    spec = importlib.util.spec_from_file_location("bench_score", ROOT / "perf" / "score.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    df = mod.build_table(rows=20_000, models=2, samples=1, seed=0)
    for _, g in df.groupby("model"):
        res = paper_metrics(g, n_boot=50)
        assert set(res["detected"]) >= {"mediconfusion", "probmed", "medvh", "medvh_fcj", "medblink", "illusion",
                                        "groups"}
        assert not [k for k, v in res.items() if isinstance(v, dict) and "error" in v]


def test_prepare_is_idempotent_and_keeps_callers_frame() -> None:
    df = frame(mixed_rows())
    cols = list(df.columns)
    d = groups.prepare(df)
    assert groups.prepare(d) is d
    assert list(df.columns) == cols  # the caller's table is not changed
