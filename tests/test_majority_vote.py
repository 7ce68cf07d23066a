"""Majority vote over samples (probe_ui.metrics.samples): voting a voted table changes nothing, so the report of a
run with several samples per question builds (its stress section votes the table the report already voted)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from probe_ui.metrics.samples import majority_vote
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views.report import build_report


def test_report_of_a_run_with_three_samples_builds_and_votes_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "r.db")
    res = run_batch(store, [load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")], ["baseline/random"],
                    BatchOptions(suites=["rotations"], samples=3, temperature=0.7, run_name="s3", progress=False))
    assert res.errors == 0
    raw = store.answers_frame(store.get_run("s3").id, full=True)
    voted = majority_vote(raw)
    assert int(raw["sample"].max()) == 2 and len(voted) * 3 == len(raw)
    pd.testing.assert_frame_equal(majority_vote(voted), voted)
    html = build_report(store, "s3")
    assert "Stress test" in html and "Traceback" not in html
