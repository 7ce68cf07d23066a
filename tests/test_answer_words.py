"""An answer's detail in words (issue 27): what was done, the prompt and the settings as people say them, with the
code names and the stored JSON kept in a folded technical record for an audit. Without the UI."""

from __future__ import annotations

import re

import pytest

from probe_ui import labels
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, run_batch
from probe_ui.store import Store
from probe_ui.views import results as R


@pytest.fixture(scope="module")
def rotated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, dict]:
    store = Store(tmp_path_factory.mktemp("words") / "p.db")
    run_batch(store, [load_preset("medvh_nota")], ["baseline/first"],
              BatchOptions(suites=["rotations"], run_name="r", progress=False))
    df = R.answers(store, ["r"])
    return store, df[df["condition"] == "rotations/rot90"].iloc[0].to_dict()


def test_settings_are_a_short_list_in_words_with_units_and_nothing_unset() -> None:
    said = labels.settings_words({"base_url": None, "max_tokens": 32, "model": "first", "provider": "baseline",
                                  "seed": 0, "stream": False, "temperature": 0.0, "timeout_s": 120.0, "top_p": None,
                                  "extra_body": {"reasoning_effort": "low"}})
    assert said == ["provider: baseline", "model: first", "longest reply: 32 tokens", "temperature: 0", "seed: 0",
                    "time limit: 120 s", "streamed reply: no", "extra body: reasoning effort low"]
    assert labels.settings_words(None) == []


def test_every_registered_template_and_parser_has_a_label() -> None:
    from probe_ui.prompts import TEMPLATES
    from probe_ui.scoring import PARSERS

    assert [t for t in TEMPLATES if TEMPLATES[t].label == ""] == []  # each declares its label where it is defined
    assert [p for p in PARSERS if not getattr(PARSERS[p], "label", "")] == []
    assert labels.template("medvh-mc") == "MedVH multiple choice"
    assert labels.parser("legacy-blink") == "BLINK's own parser"  # a benchmark's legacy_label
    assert labels.template("some-new-template") == "some new template"  # never hidden


def test_an_answers_detail_says_what_was_done_and_how_in_words(rotated) -> None:
    store, row = rotated
    _, text = R.response_detail(store, int(row["response_id"]))
    visible, record = text.split("<details>")
    assert "**what was done** rotated 90°" in visible
    assert "**prompt** MedVH multiple choice" in visible
    assert "- longest reply\\: 32 tokens" in visible and "- time limit\\: 120 s" in visible
    for code in ("rotations/rot90", "medvh-mc", "max_tokens", "rule:", "{", "rotate(angle"):
        assert code not in visible, code
    # the technical record keeps every code name and the stored settings and provenance
    assert "condition: rotations/rot90" in record and "prompt: medvh-mc" in record and "method: exact" in record
    assert '"max_tokens": 32' in record and "rotate(angle=90)" in record and '"seed":' in record
    assert re.search(r"<summary>technical record[^<]*</summary>", record) and record.rstrip().endswith("</details>")


def test_the_line_under_a_dicom_says_which_window_in_words() -> None:
    """The window dropdown starts at "as loaded"; the line under the image says which window that is, in words
    (the file's own, one chosen here, or the image's range when the file names none), never a loader's code."""
    from pydicom.data import get_testdata_file

    from probe_ui import live

    li, _ = live.load_new_image(get_testdata_file("CT_small.dcm", download=False))
    # CT_small names no window: the range is the image's (the dropdown once called it "the file's own window")
    assert "window 135.5/2063 (centre/width: the image's full range (the file names none))" in live.describe_loaded(li)
    assert set(labels.WINDOW_SOURCES) == {"file", "user", "minmax", "percentile"}
    assert labels.window_source("minmax") == "the image's full range (the file names none)"


def test_perturbation_parameters_are_named_in_words() -> None:
    from probe_ui.perturb import all_perturbations

    names = {s.name for p in all_perturbations() for s in p.specs()}
    assert set(labels.PARAMETERS) <= names  # no label for a parameter that does not exist
    assert labels.parameter("qa_type") == "what the question asks about"
    assert labels.parameter("image_index") == "which image (0 = the first)"
    assert labels.parameter("severity") == "severity"
