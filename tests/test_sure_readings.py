"""Sure readings are stored and carried (issue 46): every answer a batch stores says whether its reading is sure,
the scored-answer table and the exports carry it, and a majority vote is sure only when every sample was read
sure and all of them gave the answer that won."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from probe_ui.metrics.samples import majority_vote
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.scoring import score_run, scored_answers
from probe_ui.store import Store


def test_a_batch_stores_whether_each_reading_is_sure(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], ["baseline/first"],
              BatchOptions(run_name="r", progress=False))
    raw = store.answers_frame(store.get_run("r").id)
    assert raw["sure"].tolist() == [True] * len(raw)  # the baseline answers with a bare letter
    scored = scored_answers(store, "r")
    assert scored["sure"].tolist() == [True] * len(scored)
    rate = score_run(store, "r")["models"]["baseline/first"]["sure_rate"]
    assert (rate["numerator"], rate["denominator"], rate["value"]) == (16, 16, 100.0)  # score --json says so
    legacy = scored_answers(store, "r", parser="legacy")
    assert not legacy["sure"].any()  # the papers' own rules read, they do not say they are sure


def _cell(sample: int, parsed: str, sure: bool) -> dict[str, object]:
    return {"model": "m", "prompt": "choice", "variant_id": "v1", "sample": sample, "parsed": parsed, "method": "exact",
            "invalid": False, "refusal": False, "sure": sure, "correct": parsed == "A", "error": None,
            "latency_s": 1.0, "input_tokens": 1, "output_tokens": 1, "cost": 0.0, "answer_label": "A"}


def test_a_vote_is_sure_only_when_every_sample_is_and_agrees() -> None:
    unanimous = pd.DataFrame([_cell(0, "A", True), _cell(1, "A", True), _cell(2, "A", True)])
    assert majority_vote(unanimous)["sure"].tolist() == [True]
    split = pd.DataFrame([_cell(0, "A", True), _cell(1, "A", True), _cell(2, "B", True)])
    assert majority_vote(split)["sure"].tolist() == [False]
    guessed = pd.DataFrame([_cell(0, "A", True), _cell(1, "A", False), _cell(2, "A", True)])
    assert majority_vote(guessed)["sure"].tolist() == [False]
