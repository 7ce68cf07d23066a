"""The library behind the Probe tab: items from form fields, steps into variants, streaming answers, ratings and
benchmark sets; tested without the UI."""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest

from probe_ui import live
from probe_ui.benchmark_sets import save_item
from probe_ui.images import ImageError
from probe_ui.presets import ASSETS_DIR, PRESETS_DIR, load_preset
from probe_ui.runner import BatchError, resume_batch, run_batch
from probe_ui.store import Store, StoreError
from probe_ui.suites import expand


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
    with pytest.raises(BatchError, match="unknown model"):
        next(live.run_live(store, vs, ["nonsense"]))


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
    result = run_batch(store, [load_preset(path)], ["baseline/first"], progress=False)
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

    first = run_batch(store, [preset], ["m"], run_name="r", extra_models={"m": m}, progress=False,
                      on_progress=stop_early, cancel=cancel)
    assert first.cancelled and 0 < first.remaining < first.planned
    calls = len(fake_openai.chat_requests)
    assert calls < first.planned
    rest = resume_batch(store, "r", extra_models={"m": m}, progress=False)
    assert rest.skipped == first.answered and rest.answered == first.remaining and not rest.cancelled
    assert len(fake_openai.chat_requests) == calls + first.remaining
    df = store.answers_frame(store.get_run("r").id)
    assert len(df) == first.planned and not df.duplicated(["variant_id", "model"]).any()
    assert {r["run"]: r for r in store.run_progress()}["r"]["complete"]
