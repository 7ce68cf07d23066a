"""The library behind the Probe tab: items from form fields, steps into variants, streaming answers, ratings and
benchmark sets; tested without the UI."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from probe_ui import live
from probe_ui.images import ImageError
from probe_ui.live.sets import save_item
from probe_ui.presets import ASSETS_DIR, PRESETS_DIR, load_preset
from probe_ui.presets.suites import expand
from probe_ui.runner import BatchOptions, resume_batch, run_batch
from probe_ui.store import Store, StoreError
from probe_ui.views import comparison


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "db" / "probe-ui.db")
    yield s
    s.close()


@pytest.fixture
def ct():
    return live.load_upload(str(ASSETS_DIR / "ct_head_axial.png")).image


def item(ct, answer="CT"):
    return live.build_item("Which modality?", "choice", "CT\nMRI\nUltrasound", answer, "Head, Cerebral", (ct,))


def test_build_item_checks_fields_like_a_preset(ct):
    it = item(ct)
    assert it.options == ("CT", "MRI", "Ultrasound") and it.answer == "CT" and it.category == ("Head", "Cerebral")
    assert it.id == item(ct).id and it.id != live.build_item("Other?", "choice", "CT\nMRI", "CT").id
    assert live.build_item("q", "choice", "a\nb", "B").answer == "b"  # a letter names an option
    assert live.build_item("Is it?", "yesno", "", "Yes").answer == "yes"
    for args, msg in [(("", "choice", "a\nb", "a"), "question"), (("q", "choice", "a", "a"), "two options"),
                      (("q", "choice", "a\na", "a"), "distinct"), (("q", "choice", "a\nb", "c"), "not one of"),
                      (("q", "yesno", "", "maybe"), "yes or no"), (("q", "odd", "", None), "kind")]:
        with pytest.raises(live.ProbeError, match=msg):
            live.build_item(*args)


def test_edit_options_adds_removes_and_reorders():
    text = "CT\nMRI\nX-ray"
    assert live.edit_options(text, "up", 2) == "MRI\nCT\nX-ray"
    assert live.edit_options(text, "down", 3) == text  # the last one stays last
    assert live.edit_options(text, "remove", 1) == "MRI\nX-ray"
    assert live.edit_options(text, "add", new=" PET ") == "CT\nMRI\nX-ray\nPET"
    with pytest.raises(live.ProbeError, match="already"):
        live.edit_options(text, "add", new="CT")
    with pytest.raises(live.ProbeError, match="between 1 and 3"):
        live.edit_options(text, "remove", 7)


def test_steps_table_validates_each_row():
    rows = live.add_step([], "rotate", '{"angle": 180, "fill": null}', new_variant=True)
    rows = live.add_step(rows, "shuffle", "{}", new_variant=False)  # chained onto variant 1
    rows = live.add_step(rows, "flip", '{"axis": "h"}', new_variant=True)
    assert [r[0] for r in rows] == [1, 1, 2]
    steps = live.parse_steps(rows)
    assert steps[0].params == {"angle": 180}  # null means the default
    assert [name for name, _ in live.named_chains(steps)] == ["rotate(angle=180)+shuffle", "flip(axis=h)"]
    for bad, msg in [([[1, "spin", "{}"]], "unknown perturbation"), ([[1, "rotate", "{angle: 1}"]], "valid JSON"),
                     ([[1, "rotate", '{"speed": 1}']], "no parameter 'speed'"),
                     ([[1, "cyclic_shift", '{"shift": null}']], "needs parameter 'shift'"),
                     ([["x", "rotate", "{}"]], "variant must be a number")]:
        with pytest.raises(live.ProbeError, match=msg):
            live.parse_steps(bad)
    assert live.parse_steps([[None, None, None], ["", "", ""]]) == []


def test_clicks_place_dots_and_markers():
    rows = live.add_click([], 10.4, 20.6)
    assert rows == [[1, "dots", json.dumps({"placement": "given", "points": [[10, 21]]})]]
    rows = live.add_click(rows, 30, 40)
    assert json.loads(rows[0][2])["points"] == [[10, 21], [30, 40]]
    rows = live.add_step(rows, "marker", live.default_parameters("marker"), new_variant=True)
    rows = live.add_click(rows, 50, 60)
    assert json.loads(rows[1][2])["arrow"] == [50, 60]
    assert len(live.parse_steps(rows)) == 2


def test_rotate_and_shuffle_variants_are_exact(ct):
    it = item(ct)
    steps = live.parse_steps(live.add_step(live.add_step([], "rotate", '{"angle": 180}', True), "shuffle", "{}",
                                           False))
    vs = live.make_variants(it, (ct,), steps, seed=3)
    orig, pert = vs
    assert orig.condition == "original" and pert.condition == "rotate(angle=180)+shuffle"
    assert np.array_equal(np.asarray(pert.images[0].pil()), np.rot90(np.asarray(ct.pil()), 2))
    assert sorted(pert.options) == sorted(orig.options) and pert.answer == "CT"
    assert pert.answer_label == "ABC"[pert.options.index("CT")]
    assert [p["op"] for p in pert.provenance] == ["rotate", "shuffle"]
    again = live.make_variants(it, (ct,), steps, seed=3)
    assert [v.id for v in again] == [v.id for v in vs]  # seeded: the same variants again
    with_suite = live.make_variants(it, (ct,), [], suite="rotations", include_original=False)
    assert [v.condition for v in with_suite] == ["rotations/rot90", "rotations/rot180", "rotations/rot270"]
    with pytest.raises(live.ProbeError, match="nothing to ask"):
        live.make_variants(it, (ct,), [], include_original=False)
    with pytest.raises(live.ProbeError, match="unknown suite"):
        live.make_variants(it, (ct,), [], suite="nope")
    text = live.preview(vs)[1]["prompt"]
    assert all(f"{letter}. {opt}" in text or f"{letter}) {opt}" in text or opt in text
               for letter, opt in zip("ABC", pert.options))


def test_upload_errors_name_the_file(tmp_path):
    bad = tmp_path / "scan.dcm"
    bad.write_text("not a dicom file")
    with pytest.raises(ImageError, match="scan.dcm"):
        live.load_upload(str(bad))
    from pydicom.data import get_testdata_file

    li = live.load_upload(get_testdata_file("CT_small.dcm", download=False), window=(40, 400))
    text = live.describe_loaded(li)
    assert "DICOM" in text and "window 40/400" in text and "withheld" in text
    assert "CompressedSamples" not in text  # the patient's name (pydicom's test value) never shows


def test_run_live_streams_each_answer_as_it_arrives(store, ct, fake_openai):
    # the OpenAI-compatible model takes 1.5 s; the baselines answer at once
    fake_openai.latency_s = 1.5
    it = item(ct)
    vs = live.make_variants(it, (ct,), live.parse_steps([[1, "rotate", '{"angle": 180}']]))
    from probe_ui.providers.base import ModelConfig

    slow = ModelConfig(name="slow", provider="openai", model="gpt-4o", base_url=fake_openai.base_url)
    seen = []
    start = time.monotonic()
    for state in live.run_live(store, vs, ["baseline/first", "slow", "baseline/random"], extra_models={"slow": slow}):
        seen.append((time.monotonic() - start, {c.key: c.status for c in state.cards}))
    assert len(state.cards) == 6 and state.finished and state.done == 6
    early = [t for t, st in seen if sum(s != "waiting" for s in st.values()) == 4]
    assert early  # the four baseline cards were shown while the slow model's two were still waiting
    for c in state.cards:
        assert c.status == "answered" and c.response_id is not None
        row = store.get_response(c.response_id)
        assert row["raw_text"] == c.raw and row["model"] == c.model and row["correct"] == c.correct
    assert {c.model: c.correct for c in state.cards if c.condition == "original"}["baseline/first"] is True
    progress = {r["run"]: r for r in store.run_progress()}[state.run]
    assert progress["kind"] == "live" and progress["answered"] == 6 and progress["complete"]


def test_run_live_reports_errors_per_card_and_unknown_models_up_front(store, ct, fake_openai):
    fake_openai.fail(500, times=10)
    from probe_ui.providers.base import ModelConfig

    broken = ModelConfig(name="broken", provider="openai", model="gpt-4o", base_url=fake_openai.base_url,
                         generation={"timeout_s": 5})
    vs = live.make_variants(item(ct), (ct,), [])
    *_, state = live.run_live(store, vs, ["baseline/first", "broken"], extra_models={"broken": broken})
    by_model = {c.model: c for c in state.cards}
    assert by_model["baseline/first"].status == "answered"
    assert by_model["broken"].status == "error" and "500" in by_model["broken"].error
    # a model that cannot run here fills its own cards with the reason; the others are asked
    *_, state = live.run_live(store, vs, ["nonsense", "baseline/first"])
    by_model = {c.model: c for c in state.cards}
    assert by_model["baseline/first"].status == "answered"
    assert by_model["nonsense"].status == "error" and "unknown model" in by_model["nonsense"].error
    assert [c.model for c in state.cards] == ["nonsense", "baseline/first"]  # columns in the order chosen


def test_a_closed_page_does_not_lose_answers(store, ct, fake_openai):
    fake_openai.latency_s = 0.5
    from probe_ui.providers.base import ModelConfig

    slow = ModelConfig(name="slow", provider="openai", model="gpt-4o", base_url=fake_openai.base_url)
    gen = live.run_live(store, live.make_variants(item(ct), (ct,), []), ["slow", "baseline/first"],
                        extra_models={"slow": slow})
    state = next(gen)
    gen.close()  # the browser went away before any answer
    deadline = time.monotonic() + 10
    while store.run_progress()[-1]["answered"] < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert store.run_progress()[-1]["answered"] == 2 and store.get_run(state.run)


def test_ratings_are_kept_with_the_response(store, ct):
    *_, state = live.run_live(store, live.make_variants(item(ct), (ct,), []), ["baseline/first"])
    rid = state.cards[0].response_id
    store.rate_response(rid, "incorrect", "looks like MRI to me")
    store.rate_response(rid, "correct", "on second look")
    df = store.ratings_frame(store.get_run(state.run).id)
    assert df.to_dict("records") == [{"response_id": rid, "rating": "correct", "note": "on second look"}]
    with pytest.raises(StoreError, match="rating must be"):
        store.rate_response(rid, "great")
    with pytest.raises(StoreError, match="no response #999"):
        store.rate_response(999, "unsure")


def test_benchmark_set_replays_the_probed_variants(store, ct, tmp_path):
    it = item(ct)
    steps = live.parse_steps([[1, "rotate", '{"angle": 180}'], [1, "shuffle", "{}"], [2, "flip", "{}"]])
    folder = tmp_path / "sets"
    path, preset = save_item(folder, "my-set", it, (ct,), steps, "rotations")
    other = live.build_item("Is there a bleed?", "yesno", "", "no", "", (ct,))
    path, preset = save_item(folder, "my-set", other, (ct,), [])
    path, preset = save_item(folder, "my-set", it, (ct,), steps, "rotations")  # same id: replaced, not added
    assert [i.id for i in preset.items] == [other.id, it.id]
    assert (folder / "images" / f"{ct.id}.png").read_bytes() == ct.png
    ex = expand(load_preset(path), seed=0)
    assert not ex.errors
    conds = [v.condition for v in ex.variants if v.item_id == it.id]
    assert conds == ["original", "rotate(angle=180)+shuffle", "flip", "rotations/rot90",
                     "rotations/rot180", "rotations/rot270"]
    live_vs = live.make_variants(it, (ct,), steps, seed=0, suite="rotations")
    assert [v.images[0].id for v in live_vs] == [v.images[0].id for v in ex.variants if v.item_id == it.id]
    assert [v.options for v in live_vs] == [v.options for v in ex.variants if v.item_id == it.id]
    result = run_batch(store, [load_preset(path)], ["baseline/first"], BatchOptions(progress=False))
    assert result.errors == 0 and result.answered == 7
    with pytest.raises(live.ProbeError, match="set name"):
        save_item(folder, "../escape", it, (ct,), [])
    assert sorted(p.name for p in folder.iterdir()) == ["images", "my-set.yaml"]


def test_batch_cancel_then_resume_finishes_without_repeats(store, fake_openai):
    fake_openai.latency_s = 0.05
    from probe_ui.providers.base import ModelConfig

    m = ModelConfig(name="m", provider="openai", model="gpt-4o", base_url=fake_openai.base_url, concurrency=2)
    preset = load_preset(PRESETS_DIR / "mediconfusion_pairs.yaml")
    cancel = threading.Event()

    def stop_early(done, total, result):
        if done >= 5:
            cancel.set()

    first = run_batch(store, [preset], ["m"], BatchOptions(run_name="r", progress=False), extra_models={"m": m},
                      on_progress=stop_early, cancel=cancel)
    assert first.cancelled and 0 < first.remaining < first.planned
    calls = len(fake_openai.chat_requests)
    assert calls < first.planned
    rest = resume_batch(store, "r", BatchOptions(progress=False), extra_models={"m": m})
    # every cell not answered before is asked once; ``first.remaining`` is all of them only when the cancel came
    # after the whole batch was planned (else it is a lower bound: the cells planned so far)
    assert rest.skipped == first.answered and rest.answered == rest.planned - first.answered and not rest.cancelled
    assert rest.answered == first.remaining if first.plan_complete else rest.answered >= first.remaining
    assert len(fake_openai.chat_requests) == calls + rest.answered
    df = store.answers_frame(store.get_run("r").id)
    assert len(df) == rest.planned and not df.duplicated(["variant_id", "model"]).any()
    assert {r["run"]: r for r in store.run_progress()}["r"]["complete"]


def test_a_model_without_its_key_says_which_key_next_to_the_baselines(store, ct, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    vs = live.make_variants(item(ct), (ct,), live.parse_steps([[1, "shuffle", "{}"]]))
    *_, state = live.run_live(store, vs, ["baseline/first", "gpt-4o", "baseline/random"])
    cards = {(c.model, c.variant_id): c for c in state.cards}
    assert {c.status for (m, _), c in cards.items() if m.startswith("baseline")} == {"answered"}
    missing = [c for (m, _), c in cards.items() if m == "gpt-4o"]
    assert len(missing) == 2 and all(c.status == "error" and "OPENAI_API_KEY" in c.error for c in missing)


# ---- images: each new image starts from its own defaults ---------------------------------------------------------
def test_a_png_after_a_windowed_dicom_is_sent_unwindowed():
    from pydicom.data import get_testdata_file

    dcm = get_testdata_file("CT_small.dcm", download=False)
    li, ctl = live.load_new_image(dcm)
    assert ctl.windowed and ctl.window == tuple(li.info["window"]) and ctl.frame == 0 and ctl.axis is None
    windowed, _ = live.reload_image(open(dcm, "rb").read(), "CT_small.dcm", (40, 400), 0, None, None)
    assert windowed.info["window"] == [40.0, 400.0]
    png = ASSETS_DIR / "mr_small.png"
    alone = live.load_upload(str(png)).image.id
    li, ctl = live.load_new_image(str(png))
    assert li.image.id == alone and not ctl.windowed and ctl.window is None
    # even asked for a window, a PNG is sent as the file holds it
    li, _ = live.reload_image(png.read_bytes(), "mr_small.png", (40, 400), 0, None, None)
    assert li.image.id == alone


def test_nifti_controls_start_on_the_middle_slice():
    import os

    import nibabel

    path = os.path.join(os.path.dirname(nibabel.__file__), "tests", "data", "example4d.nii.gz")
    _, ctl = live.load_new_image(path)
    assert ctl.format == "nifti" and ctl.axis == 2 and ctl.slice == ctl.n_slices // 2 and ctl.window is not None


def test_steps_placed_on_the_old_image_are_dropped_when_the_image_changes():
    rows = [[1, "rotate", '{"angle": 90}'], [2, "dots", '{"placement": "given", "points": [[3, 4]]}'],
            [3, "dots", '{"placement": "uniform", "n": 3}'], [4, "marker", '{"shape": "arrow", "arrow": [5, 5]}']]
    kept, dropped = live.steps_without_points(rows)
    assert [r[1] for r in kept] == ["rotate", "dots"] and dropped == ["step 2 (dots)", "step 4 (marker)"]


def test_a_click_is_drawn_on_the_image_at_once(ct):
    rows = live.add_click([], 100, 120)
    drawn = live.with_pending_points(ct, rows)
    assert drawn.id != ct.id and (drawn.width, drawn.height) == (ct.width, ct.height)
    assert live.with_pending_points(ct, [[1, "rotate", '{"angle": 90}']]).id == ct.id  # no point, no change


# ---- a preset item, whole ------------------------------------------------------------------------------------------
def test_loading_a_preset_item_brings_all_of_it():
    it = live.load_preset_item(str(PRESETS_DIR / "medblink_depth.yaml"), "depth-echo")
    assert it.item.kind == "label" and it.item.options == ("red", "green", "blue")
    assert it.extra["attributes"]["dots"] == {"placement": "ultrasound", "target": "shallowest"}
    assert it.suites == ("dot-colours",) and it.include_original is False and it.steps == []
    # asked from the Probe tab's fields plus the item's extras: the preset's own six variants, answers known
    built = live.build_item(it.item.question, it.item.kind, it.options_text, it.item.answer,
                            ", ".join(it.item.category), it.images, extra=it.extra)
    vs = live.make_variants(built, it.images, [], suites=list(it.suites), include_original=it.include_original)
    assert len(vs) == 6 and all(v.answer in ("red", "green", "blue") for v in vs)
    preset_vs = [v for v in expand(load_preset(PRESETS_DIR / "medblink_depth.yaml"), 0).variants
                 if v.item_id == "depth-echo"]
    assert sorted(v.answer for v in vs) == sorted(v.answer for v in preset_vs)
    with pytest.raises(live.ProbeError, match="no item 'nope'"):
        live.load_preset_item(str(PRESETS_DIR / "medblink_depth.yaml"), "nope")


def test_a_preset_items_own_chains_become_steps(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "perturbations:\n  - name: tilt\n    steps: [{op: rotate, angle: 90}, {op: shuffle}]\n"
        "items:\n  - id: a\n    image: mr_small.png\n    question: Which?\n    options: [CT, MRI]\n"
        "    answer: MRI\n    perturbations:\n      - name: nota\n        steps: [{op: nota, mode: baseline}]\n",
        encoding="utf-8")
    it = live.load_preset_item(str(tmp_path / "p.yaml"), "a")
    assert [(r[0], r[1]) for r in it.steps] == [(1, "rotate"), (1, "shuffle"), (2, "nota")]
    words = live.steps_in_words(it.steps)
    assert "variant 1: rotated 90° + options shuffled" in words and "none of the above added" in words


def test_build_item_errors_name_their_field(ct):
    for args, field in ((("", "choice", "a\nb", None), "question"), (("q", "choice", "a", None), "options"),
                        (("q", "choice", "a\nb", "c"), "answer")):
        with pytest.raises(live.ProbeError) as e:
            live.build_item(*args)
        assert e.value.field == field


def test_parameters_from_controls_leave_defaults_out():
    names = [s.name for s in live.param_specs("rotate")]
    assert names[:2] == ["angle", "fill"]
    values = {"angle": 180, "fill": "black"}
    got = live.values_from_controls("rotate", [values.get(n) for n in names])
    assert got == {"angle": 180}  # fill is its default
    dots = [s.name for s in live.param_specs("dots")]
    raw = ["[[10, 20]]" if n == "points" else "given" if n == "placement" else None for n in dots]
    assert live.values_from_controls("dots", raw) == {"points": [[10, 20]], "placement": "given"}
    bad = ["[[10, 20" if n == "points" else None for n in dots]
    with pytest.raises(live.ProbeError, match="parameter 'points' takes JSON"):
        live.values_from_controls("dots", bad)


def test_a_preset_items_unusable_step_is_named_when_it_is_loaded(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "items:\n  - id: a\n    image: mr_small.png\n    question: Which?\n    options: [CT, MRI]\n    answer: MRI\n"
        "    perturbations:\n      - name: tilt\n        steps: [{op: rotate, angle: 90deg}]\n"
        "      - name: turn\n        steps: [{op: rotate, angle: 90}]\n", encoding="utf-8")
    it = live.load_preset_item(str(tmp_path / "p.yaml"), "a")
    assert [(r[1], json.loads(r[2])) for r in it.steps] == [("rotate", {"angle": 90})]
    assert len(it.dropped) == 1 and "parameter 'angle'" in it.dropped[0] and "tilt" in it.dropped[0]


def test_controls_give_the_same_variant_as_a_preset():
    """A slider's 180.0 is recorded as a preset's 180: the same parameters make the same variant."""
    names = [s.name for s in live.param_specs("rotate")]
    got = live.values_from_controls("rotate", [180.0 if n == "angle" else None for n in names])
    assert got == {"angle": 180} and isinstance(got["angle"], int)


def test_models_that_cannot_be_asked_are_stored_as_failed_calls_and_keep_their_column(store, ct, monkeypatch):
    """Issue 22: a model with no key gets one failed call per variant, stored with the reason, so that the table
    drawn again from the store (after a rating) keeps its column in the order chosen, and Results counts them."""
    from probe_ui.scoring import scored_answers
    from probe_ui.views.failures import failed_calls

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    vs = live.make_variants(item(ct), (ct,), live.parse_steps([[1, "rotate", '{"angle": 90}']]))
    *_, state = live.run_live(store, vs, ["gpt-4o", "baseline/first"])
    failed = [c for c in state.cards if c.model == "gpt-4o"]
    assert len(failed) == 2 and all(c.status == "error" and c.response_id is not None for c in failed)
    assert "OPENAI_API_KEY" in store.get_response(failed[0].response_id)["error"]
    table = comparison.comparison_of(store, state.run)
    assert table.models == ["gpt-4o", "baseline/first"] and table.done == table.total == 4
    assert {table.cell(v.id, "gpt-4o").state for v in vs} == {"error"}
    progress = {r["run"]: r for r in store.run_progress()}[state.run]
    assert progress["planned"] == 4 and progress["errors"] == 2
    why = failed_calls(scored_answers(store, state.run)).to_dict("records")
    assert why == [{"run": state.run, "model": "gpt-4o", "failed calls": 2,
                    "why (count × reason)": "2 × could not be asked here: OPENAI_API_KEY is not set"}]
    # no model at all can be asked: the run still records what was tried
    *_, only = live.run_live(store, vs[:1], ["gpt-4o"])
    assert only.run and [c.status for c in only.cards] == ["error"] and only.cards[0].response_id is not None


def test_failure_reasons_in_words() -> None:
    from probe_ui.views.failures import reason_words

    assert reason_words("model 'x' is not usable here: ANTHROPIC_API_KEY is not set") == (
        "could not be asked here: ANTHROPIC_API_KEY is not set")
    assert reason_words("openai/gpt-4o: HTTP 429 rate limited (after 2 retries): slow down") == (
        "rate limited by the provider (too many requests)")
    assert reason_words("slow: no answer within 125 s") == "no answer in time"
    assert reason_words("vllm/q: cannot connect to http://127.0.0.1:8000/v1 (ConnectError: refused)") == (
        "the server could not be reached")
    assert reason_words("m: HTTP 401 unauthorized: bad key") == "the key was refused"
    assert reason_words("m: HTTP 503 server error") == "the provider's server failed"
    assert reason_words("m: something odd happened") == "something odd happened"


def test_live_probes_are_listed_by_the_typed_question_and_their_time_to_the_second(store, ct, monkeypatch):
    """Issue 51, U32: a probe was listed by its last variant's question (the false premise) and the minute, so two
    probes of one question a minute apart read the same, and a projector's list cut the label before the time."""
    from probe_ui.live import steps as S
    from probe_ui.views.results import run_choices

    premise = S.parse_steps([[1, "premise", '{"text": "Given the fracture, which modality?"}']])
    only_premise = live.make_variants(item(ct), (ct,), premise, include_original=False)
    assert only_premise[0].question == "Given the fracture, which modality?"
    *_, first = live.run_live(store, only_premise, ["baseline/first"], run_name="probe-1")
    *_, second = live.run_live(store, live.make_variants(item(ct), (ct,), premise), ["baseline/first"],
                               run_name="probe-2")
    times = {"probe-1": "2026-11-28T09:15:04+00:00", "probe-2": "2026-11-28T09:15:41+00:00"}
    runs = {r.name: r for r in store.list_runs()}
    monkeypatch.setattr(store, "list_runs", lambda: [
        type(r)(**{**r.__dict__, "created_at": times[r.name], "updated_at": times[r.name]}) for r in runs.values()])
    labels = dict((name, label) for label, name in run_choices(store))
    assert len(set(labels.values())) == 2  # a probe a few seconds after another reads differently
    times["probe-2"] = times["probe-1"]  # ... and one in the same second is told apart by its name
    same = [label for label, _ in run_choices(store)]
    assert len(set(same)) == 2 and all(label.endswith(("· probe-1", "· probe-2")) for label in same)
    for name, label in labels.items():
        when, what = label.split(" · ", 1)
        assert when.endswith(":04") or when.endswith(":41")  # the time first, to the second
        assert what.startswith("Which modality? (live probe"), label  # the question as typed, not the premise


def test_a_probe_asked_again_with_one_more_model_keeps_the_raters_own_ratings(store, ct):
    """Issue 51, U34: re-asking with one more model makes a new run; the ratings given a minute earlier carry over
    to the same answers (same variant, model and reply), only the rater's own, and the old run keeps its own."""
    vs = live.make_variants(item(ct), (ct,), live.parse_steps([[1, "rotate", '{"angle": 90}']]))
    *_, first = live.run_live(store, vs, ["baseline/first", "baseline/last"], run_name="before")
    by_cell = {(c.variant_id, c.model): c.response_id for c in first.cards}
    original, rotated = vs[0].id, vs[1].id
    store.rate_response(by_cell[(original, "baseline/first")], "correct", "CT, plainly", rater="Dr Lee",
                        verified=False)
    store.rate_response(by_cell[(rotated, "baseline/last")], "incorrect", "", rater="Dr Lee", verified=False)
    store.rate_response(by_cell[(rotated, "baseline/first")], "unsure", "", rater="someone else", verified=False)
    *_, again = live.run_live(store, vs, ["baseline/first", "baseline/last", "baseline/random"], run_name="after")
    assert live.carry_ratings(store, "before", "after", "Dr Lee", False) == (2, 0)
    new_cell = {(c.variant_id, c.model): c.response_id for c in again.cards}
    shown = live.ratings_of(store, "after")
    assert shown[new_cell[(original, "baseline/first")]] == ("correct", "CT, plainly")
    assert shown[new_cell[(rotated, "baseline/last")]] == ("incorrect", "")
    assert new_cell[(rotated, "baseline/first")] not in shown  # another rater's rating stays where it was given
    assert len(live.ratings_of(store, "before")) == 3  # the earlier run keeps all of its own
    # a rated model not asked again: its ratings stay with the earlier run, and the count says so
    *_, fewer = live.run_live(store, vs, ["baseline/random"], run_name="fewer")
    assert live.carry_ratings(store, "before", "fewer", "Dr Lee", False) == (0, 2)
    # another question altogether: nothing to carry, nothing left behind to mention
    *_, other = live.run_live(store, live.make_variants(item(ct, answer="MRI"), (ct,), []), ["baseline/last"],
                              run_name="other item")
    assert live.carry_ratings(store, "before", "other item", "Dr Lee", False) == (0, 0)


def test_the_correct_answer_is_never_emptied_unless_it_left_the_options_and_then_it_is_said():
    """Issue 51, U36: an answer chosen while the options were updating was reset to empty by the options' event
    (sent before it was chosen), silently."""
    opts = "Nodule in the right upper lobe\nNodule in the left lower lobe"
    assert live.answer_after_options("choice", opts, None) == (opts.splitlines(), None)  # nothing to undo
    assert live.answer_after_options("choice", opts, "Nodule in the left lower lobe")[1] is None
    choices, why = live.answer_after_options("choice", "Nodule in the right upper lobe\nEffusion",
                                             "Nodule in the left lower lobe")
    assert choices == ["Nodule in the right upper lobe", "Effusion"]
    assert "'Nodule in the left lower lobe' is no longer one of the options" in why
    assert live.answer_after_options("yesno", opts, "Nodule in the left lower lobe")[1]  # another kind
    assert live.answer_after_options("free", "", "anything") == ([], None)
