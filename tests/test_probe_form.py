"""The Probe form as one object (probe_ui.live.form), its draft kept in a browser (probe_ui.live.drafts), the labels
the page shows for code names (probe_ui.labels), and the comparison table as a projector needs it."""

from __future__ import annotations

import dataclasses
import re

import pytest

from probe_ui import labels, live
from probe_ui.live import drafts
from probe_ui.live import form as probe_form
from probe_ui.live.form import ProbeForm, shown_steps, step_rows
from probe_ui.perturb import all_perturbations
from probe_ui.presets import ASSETS_DIR
from probe_ui.presets.suites import SUITES
from probe_ui.store import Store
from probe_ui.views import comparison


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "s.db")


@pytest.fixture
def ct(store):
    im = live.load_upload(str(ASSETS_DIR / "ct_head_axial.png")).image
    store.put_image(im)
    return im


def form_of(ct, **kw) -> ProbeForm:
    values = dict(image_ids=[ct.id], question="Which modality?", kind="choice", options="CT\nMRI\nUltrasound",
                  answer="CT", category="Head", extra={}, steps=[[1, "rotate", '{"angle": 90}'], [2, "shuffle", ""]],
                  seed=None, suites=[], include_original=True)
    values.update(kw)
    return ProbeForm.from_values(list(values.values()), seed=3)


def test_one_form_gives_the_variants_the_run_and_the_stress_item(store, ct) -> None:
    form = form_of(ct)
    vs = form.variants(store)
    assert [describe for describe in (v.condition for v in vs)][0] == "original" and len(vs) == 3
    assert form.variants(store, suite="rotations", own=False)[0].condition == "original"
    assert len(form.variants(store, suite="rotations", own=False)) == 4  # the item and its suite, not the steps
    *_, (state, asked) = probe_form.run(store, form, ["baseline/first"], variants=vs)
    assert state.finished and asked == vs and len(state.cards) == 3
    # by name, fields left out take their defaults
    assert ProbeForm.from_values({"question": "Q?"}).include_original is True


def test_steps_show_labels_and_read_back_code_names() -> None:
    rows = [[1, "nota", "{}"], [2, "cyclic_shift", '{"shift": 1}']]
    shown = shown_steps(rows)
    assert shown == [[1, "add 'none of the above'", ""], [2, "rotate the options' order", '{"shift": 1}']]
    assert [r[1] for r in step_rows(shown)] == ["nota", "cyclic_shift"]
    assert live.parse_steps(step_rows(shown))[0].op == "nota"
    assert step_rows({"data": [[1, "Shuffle the options", ""]]})[0][1] == "shuffle"  # any case, from the API


def test_every_perturbation_and_suite_has_a_label_in_words() -> None:
    for name in [p.name for p in all_perturbations()] + list(SUITES):
        label = labels.perturbation(name) if name not in SUITES else labels.suite(name)
        assert label and "_" not in label, name
    assert labels.perturbation("some_new_thing") == "some new thing"  # a new one is never hidden


def test_a_draft_comes_back_for_its_user_only(store, ct) -> None:
    form = form_of(ct)
    kept = drafts.pack(form, ["baseline/first"], "openai/gpt-4o", "alice")
    back = drafts.unpack(kept, "alice", store)
    assert back is not None and back.form.image_ids == (ct.id,) and back.note == ""
    assert back.form.question == "Which modality?" and back.models == ["baseline/first"]
    assert back.adhoc == "openai/gpt-4o" and back.form.seed == 3
    # someone else's browser storage (or a copy of it): the typed fields, never the image
    other = drafts.unpack(kept, "bob", store)
    assert other is not None and other.form.image_ids == () and "choose it again" in other.note
    assert other.form.question == "Which modality?"
    # an image id written into the storage by hand is refused
    forged = dict(kept, form=dict(kept["form"], image_ids=["0" * 64]))
    assert drafts.unpack(forged, "alice", store).form.image_ids == ()
    # a draft signed by another server process (another key) brings no image back either
    assert drafts.unpack(drafts.pack(form, [], "", "alice", key=b"x" * 32), "alice", store).form.image_ids == ()


def test_a_draft_written_before_start_over_is_not_brought_back(store, ct) -> None:
    """A draft write still on its way when the person started over (CI: the question came back after Start over and
    a reload) belongs to the generation before it, and stays away; the new generation's drafts come back."""
    form = form_of(ct)
    before = drafts.pack(form, [], "", "alice")  # sent as the reload restored the form, lands after Start over
    started = drafts.new_generation()
    assert drafts.unpack(before, "alice", store, generation=started) is None
    after = drafts.pack(form, [], "", "alice", generation=started)
    back = drafts.unpack(after, "alice", store, generation=started)
    assert back is not None and back.form.question == "Which modality?"
    assert drafts.unpack(after, "alice", store, generation=drafts.new_generation()) is None  # started over again
    assert drafts.unpack(before, "alice", store) is not None  # a browser that never started over: as before


def test_a_draft_brings_back_its_run_and_presenter_mode_for_its_user_only(store, ct) -> None:
    """Issue 51, U31: a reload mid-demo brings back the table's run and presenter mode; a run name written into
    the storage by hand, or another person's draft, brings no run back."""
    form = form_of(ct)
    *_, state = live.run_live(store, form.variants(store), ["baseline/first"], run_name="alice's probe")
    kept = drafts.pack(form, [], "", "alice", run="alice's probe", presenter=True)
    back = drafts.unpack(kept, "alice", store)
    assert back is not None and back.run == "alice's probe" and back.presenter is True
    assert drafts.unpack(kept, "bob", store).run == ""  # someone else's storage: no run
    forged = dict(kept, run="bob's probe")
    assert drafts.unpack(forged, "alice", store).run == ""
    store_gone = dict(drafts.pack(form, [], "", "alice", run="deleted run"))
    assert drafts.unpack(store_gone, "alice", store).run == ""  # a run no longer stored
    plain = drafts.unpack(drafts.pack(form, [], "", "alice"), "alice", store)
    assert plain.run == "" and plain.presenter is None  # an older draft says nothing of presenter mode
    assert drafts.unpack(dict(kept, presenter="yes"), "alice", store).presenter is None


@pytest.mark.parametrize("junk", [None, "text", 3, {"v": 99}, {"v": 1, "form": "x"},
                                  {"v": 1, "form": {"steps": "x", "seed": "1e30", "suites": [1, None]}}])
def test_a_broken_draft_is_ignored_or_cleaned(store, junk) -> None:
    back = drafts.unpack(junk, "alice", store)
    assert back is None or (back.form.steps == () and back.form.seed == 0 and back.form.suites == ())


def test_the_table_pages_model_columns_and_never_breaks_a_word(store, ct) -> None:
    vs = form_of(ct).variants(store)
    models = ["baseline/random", "baseline/first", "baseline/last", "openai/gpt-4o-mini", "ollama/llava"]
    t = comparison.Table("r", [comparison.row_for_variant(v) for v in vs], models, question="Which modality?")
    t.cells[(vs[0].id, models[0])] = comparison.Cell("right", "A · CT", 3.5, response_id=1)
    t.cells[(vs[1].id, models[3])] = comparison.Cell("error", error="timed out", response_id=2)
    html = comparison.render(t, models_per_table=4)
    assert html.count("<table") == 2 and "models 1–3 of 5" in html and "models 4–5 of 5" in html
    assert "<div class='pu-asked'><span class='pu-muted'>asked:</span> Which modality?</div>" in html
    assert "3.5 s" not in html  # a baseline's time measures the queue, not a model
    failed = re.search(r"<td class='pu-cell pu-error'.*?</td>", html).group(0)
    assert "data-act='rate'" not in failed and "data-act='open'" in failed and "⚠" in failed
    assert "word-break:break-word" not in comparison.CSS
    assert comparison.render(t).count("<table") == 1  # the library's default: one table


def test_a_typed_question_is_asked_plainly_and_a_preset_item_with_its_papers_prompt(store, ct) -> None:
    """Issue 51, U46: a clinician's own question got MediConfusion's prompt (its system prompt's typo included),
    and nothing said it was quoted verbatim."""
    from probe_ui import prompts

    own = form_of(ct)
    assert probe_form.template(probe_form.AUTO, own) == "choice"
    request = prompts.render(own.variants(store)[0], probe_form.template(probe_form.AUTO, own))
    text = " ".join(m.text() for m in request.messages)
    assert "assitant" not in text and "Which modality?" in text and "A. " in text
    assert [m.role for m in request.messages] == ["user"]  # no system prompt
    preset_item = dataclasses.replace(own, extra={"preset": "mediconfusion_pairs"})
    assert probe_form.template(probe_form.AUTO, preset_item) is None  # the kind's paper default
    assert probe_form.template("mediconfusion-mc", own) == "mediconfusion-mc"  # a template chosen by name


def test_the_words_for_a_missing_answer_and_carried_ratings() -> None:
    assert "No correct answer chosen" in probe_form.no_answer_warning(ProbeForm(question="q", kind="choice"))
    assert probe_form.no_answer_warning(ProbeForm(question="q", kind="free")) == ""
    assert probe_form.carried_words(0, 0, "r") == ""
    assert probe_form.carried_words(2, 1, "live-1").startswith("2 of your ratings from the run before were carried")
    assert "1 of your ratings stay with the run before (live-1)" in probe_form.carried_words(2, 1, "live-1")
