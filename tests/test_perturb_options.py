"""Option perturbations: shuffles, cyclic shifts, distractor replacement, NOTA and escape options.

Properties over random items and seeds: option texts and the answer's text survive reordering, the correct option
is never replaced, added options land in every position, and every result replays from its provenance.
"""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from probe_ui.items import LETTERS, Variant
from probe_ui.perturb import PerturbationError, PerturbContext, apply, replay
from probe_ui.perturb.options import ESCAPE_TEXTS, NOTA, SPECIAL_OPTIONS, UNKNOWN, UNRELATED_OPTIONS
from probe_ui.prompts import render

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_word = st.text(alphabet=string.ascii_lowercase + " ", min_size=1, max_size=12).map(str.strip).filter(bool)


@st.composite
def choice_variants(draw: st.DrawFn, min_options: int = 2, max_options: int = 6) -> Variant:
    opts = draw(st.lists(_word, min_size=min_options, max_size=max_options, unique_by=lambda s: s.lower()))
    assume(not any(o.lower() in SPECIAL_OPTIONS for o in opts))
    answer = draw(st.sampled_from(opts))
    item = draw(st.sampled_from(["q0", "q1", "q2"]))
    return Variant(item_id=item, question=f"Which finding is shown in {item}?", kind="choice", options=tuple(opts),
                   answer=answer, group=item)


def _variant(options: tuple[str, ...] = ("atelectasis", "granuloma", "vascular congestion", "edema"),
             answer: str = "edema", **kw) -> Variant:
    return Variant(item_id=kw.pop("item_id", "i"), question=kw.pop("question", "what abnormalities are seen?"),
                   kind=kw.pop("kind", "choice"), options=options, answer=answer, **kw)


POOL = (
    _variant(item_id="p1", options=("left side", "right side"), answer="left side"),
    _variant(item_id="p2", options=("mild", "moderate", "severe", "Edema"), answer="mild"),
    _variant(item_id="p3", options=("bilateral area", "bibasilar area", "lung right area"), answer="bilateral area"),
)
CTX = PerturbContext(pool=POOL)


def _assert_replays(v: Variant, out: Variant, ctx: PerturbContext = CTX) -> None:
    again = replay(v, out.provenance, ctx)
    assert again.id == out.id and again == out
    json.dumps(list(out.provenance))  # provenance is JSON-able (params and details)


# ---------------------------------------------------------------------------------------------------- reordering

@FAST
@given(choice_variants(), st.integers(0, 2**32))
def test_shuffle_keeps_option_set_and_answer_text(v: Variant, seed: int) -> None:
    out = apply(v, "shuffle", {}, seed)
    assert sorted(out.options) == sorted(v.options) and out.answer == v.answer
    assert out.answer_label == LETTERS[out.options.index(v.answer)]
    assert apply(v, "shuffle", {}, seed) == out  # same seed, same order
    _assert_replays(v, out)


@FAST
@given(choice_variants())
def test_cyclic_shifts_give_k_distinct_orders_with_the_answer_text(v: Variant) -> None:
    k = len(v.options)
    outs = [apply(v, "cyclic_shift", {"shift": s}, 0) for s in range(k)]
    assert len({o.options for o in outs}) == k
    for s, out in enumerate(outs):
        assert out.answer == v.answer and sorted(out.options) == sorted(v.options)
        assert all(out.options[(i + s) % k] == v.options[i] for i in range(k))
        _assert_replays(v, out)
    # every option visits every letter once: the CircularEval group
    assert {o.answer_label for o in outs} == set(LETTERS[:k])
    assert apply(v, "cyclic_shift", {"shift": k + 1}, 0).options == outs[1].options


def test_cyclic_shift_rejects_non_choice_and_bad_shift() -> None:
    with pytest.raises(PerturbationError, match="multiple-choice"):
        apply(_variant(kind="yesno", options=(), answer="yes"), "cyclic_shift", {"shift": 1}, 0)
    with pytest.raises(PerturbationError, match="parameter 'shift': must be a whole number"):
        apply(_variant(), "cyclic_shift", {"shift": "1"}, 0)
    with pytest.raises(PerturbationError, match="needs parameter 'shift'"):
        apply(_variant(), "cyclic_shift", {}, 0)


# ----------------------------------------------------------------------------------------- distractor replacement

@FAST
@given(choice_variants(), st.integers(0, 2**32), st.data())
def test_replace_distractors_never_touches_the_correct_option(v: Variant, seed: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, len(v.options) - 1))
    source = data.draw(st.sampled_from(["pool", "preset"]))
    pool = tuple(_variant(item_id=f"o{i}", options=(f"other option {i}", f"another one {i}"),
                          answer=f"other option {i}") for i in range(3))
    ctx = PerturbContext(pool=pool)
    out = apply(v, "replace_distractors", {"k": k, "source": source}, seed, ctx)
    correct = v.options.index(v.answer)
    assert out.answer == v.answer and out.options[correct] == v.answer
    assert len(out.options) == len(v.options)
    changed = [i for i in range(len(v.options)) if out.options[i] != v.options[i]]
    assert len(changed) == k and correct not in changed
    original = {o.lower() for o in v.options}
    assert all(out.options[i].lower() not in original for i in changed)
    details = out.provenance[-1]["details"]
    assert [r["position"] for r in details["replaced"]] == changed
    assert all(r["old"] == v.options[r["position"]] and r["new"] == out.options[r["position"]]
               for r in details["replaced"])
    if source == "pool":
        assert all(out.options[i] in UNRELATED_OPTIONS for i in changed)
    _assert_replays(v, out, ctx)


def test_replace_distractors_sources_and_errors() -> None:
    v = _variant()
    pre = apply(v, "replace_distractors", {"k": 3, "source": "preset"}, 4, CTX)
    foreign = {o for p in POOL for o in p.options}
    assert {pre.options[i] for i in (0, 1, 2)} <= foreign and pre.options[3] == "edema"
    assert "Edema" not in pre.options  # another item's option equal to one of ours (case-insensitive) is skipped
    unk = apply(v, "replace_distractors", {"source": "unknown"}, 9)
    assert unk.options.count(UNKNOWN) == 1 and unk.answer == "edema" and unk.options[3] == "edema"
    assert len({apply(v, "replace_distractors", {"source": "unknown"}, s).options.index(UNKNOWN)
                for s in range(60)}) == 3  # any of the three distractors
    with pytest.raises(PerturbationError, match="k=4 but this item has only 3 wrong option"):
        apply(v, "replace_distractors", {"k": 4}, 0)
    with pytest.raises(PerturbationError, match="exactly one distractor"):
        apply(v, "replace_distractors", {"k": 2, "source": "unknown"}, 0)
    with pytest.raises(PerturbationError, match="needs the other items"):
        apply(v, "replace_distractors", {"source": "preset"}, 0)
    with pytest.raises(PerturbationError, match="only 2 unrelated option"):
        apply(v, "replace_distractors", {"k": 3, "source": "preset"}, 0, PerturbContext(pool=POOL[:1]))
    with pytest.raises(PerturbationError, match="correct answer"):
        apply(_variant(answer=None), "replace_distractors", {}, 0)
    with pytest.raises(PerturbationError, match="parameter 'source': must be one of 'pool', 'preset', 'unknown'"):
        apply(v, "replace_distractors", {"source": "web"}, 0)


def test_builtin_pool_is_large_unique_and_skips_overlapping_terms() -> None:
    assert len(UNRELATED_OPTIONS) >= 60
    assert len({t.lower() for t in UNRELATED_OPTIONS}) == len(UNRELATED_OPTIONS)
    v = _variant(options=("tension pneumothorax", "pleural effusion", "cardiomegaly", "edema"), answer="edema")
    drawn = {apply(v, "replace_distractors", {"k": 3}, s).options[i] for s in range(100) for i in range(3)}
    assert not {"Pneumothorax", "Pleural effusion", "Cardiomegaly"} & drawn


# ---------------------------------------------------------------------------------------------------------- NOTA

@FAST
@given(choice_variants(), st.integers(0, 2**32))
def test_nota_hallucination_removes_the_correct_option(v: Variant, seed: int) -> None:
    out = apply(v, "nota", {"mode": "hallucination"}, seed)
    assert out.answer == NOTA and v.answer not in out.options
    assert len(out.options) == len(v.options) and out.options.count(NOTA) == 1
    rest = [o for o in v.options if o != v.answer]
    assert [o for o in out.options if o != NOTA] == rest  # the other options keep their order
    d = out.provenance[-1]["details"]
    assert d["removed"] == v.answer and out.options[d["position"]] == NOTA and d["letter"] == out.answer_label
    _assert_replays(v, out)
    base = apply(v, "nota", {"mode": "baseline"}, seed)
    assert base.answer == v.answer and len(base.options) == len(v.options) + 1 and NOTA in base.options
    _assert_replays(v, base)


@pytest.mark.parametrize("mode,slots", [("hallucination", 4), ("baseline", 5)])
def test_nota_seeded_position_covers_every_slot_over_200_seeds(mode: str, slots: int) -> None:
    v = _variant()
    seen = {apply(v, "nota", {"mode": mode}, s).options.index(NOTA) for s in range(200)}
    assert seen == set(range(slots))


def test_nota_fixed_positions_and_errors() -> None:
    v = _variant()
    assert apply(v, "nota", {"position": "last"}, 0).options == ("atelectasis", "granuloma", "vascular congestion",
                                                                  NOTA)
    assert apply(v, "nota", {"mode": "baseline", "position": 0}, 0).options[0] == NOTA
    assert apply(v, "nota", {"mode": "baseline", "position": -1}, 0).options[-1] == NOTA
    with pytest.raises(PerturbationError, match="outside the 5 positions"):
        apply(v, "nota", {"mode": "baseline", "position": 5}, 0)
    with pytest.raises(PerturbationError,
                       match="parameter 'position': must be one of 'seeded', 'last' or a whole number"):
        apply(v, "nota", {"position": "first"}, 0)
    with pytest.raises(PerturbationError, match="does not apply to a yes/no item"):
        apply(_variant(kind="yesno", options=(), answer="yes"), "nota", {}, 0)
    with pytest.raises(PerturbationError, match="already has a 'None of the above'"):
        apply(apply(v, "nota", {"mode": "baseline"}, 0), "nota", {}, 0)
    with pytest.raises(PerturbationError,
                       match="parameter 'mode': must be one of 'hallucination', 'baseline', not 'both'"):
        apply(v, "nota", {"mode": "both"}, 0)


# -------------------------------------------------------------------------------------------------------- escape

@pytest.mark.parametrize("kind", ["unsuitable", "premise"])
@pytest.mark.parametrize("answer", ["keep", "escape"])
def test_escape_lands_in_every_position_over_200_seeds(kind: str, answer: str) -> None:
    v = _variant()
    text = ESCAPE_TEXTS[kind]
    outs = [apply(v, "escape", {"kind": kind, "answer": answer}, s) for s in range(200)]
    assert {o.options.index(text) for o in outs} == set(range(5))
    for o in outs[:20]:
        assert o.answer == (text if answer == "escape" else "edema")
        assert [x for x in o.options if x != text] == list(v.options)
        assert o.provenance[-1]["details"]["position"] == o.options.index(text)


def test_escape_texts_are_medvh_wording() -> None:
    assert ESCAPE_TEXTS == {"unsuitable": "Not a suitable question for the image",
                            "premise": "The question contains a clinically incorrect premise"}
    own = apply(_variant(), "escape", {"kind": "premise", "text": "this question contains an incorrect clinical "
                                       "statement.", "answer": "escape"}, 0)
    assert own.answer == "this question contains an incorrect clinical statement."


def test_escape_turns_a_yes_no_item_into_medvh_choices() -> None:
    yn = Variant(item_id="y", question="Can nodule be observed on the upper right lung in this picture?",
                 kind="yesno", answer="yes")
    out = apply(yn, "escape", {"kind": "unsuitable", "answer": "escape", "position": "last"}, 0)
    assert out.kind == "choice" and out.options == ("Yes", "No", "Not a suitable question for the image")
    assert out.answer_label == "C"
    # exactly MedVH's wrongful-image choices string
    assert render(out, "medvh-mc").messages[-1].text().endswith(
        "Choices: A: Yes. B: No. C: Not a suitable question for the image.")
    keep = apply(yn, "escape", {}, 3)
    assert keep.answer == "Yes" and keep.provenance[-1]["details"]["converted"] == "yesno"
    assert {apply(yn, "escape", {}, s).options.index(ESCAPE_TEXTS["unsuitable"]) for s in range(200)} == {0, 1, 2}
    _assert_replays(yn, keep)


def test_escape_errors() -> None:
    lab = Variant(item_id="l", question="Which dot?", kind="label", options=("red", "green"), answer="red")
    with pytest.raises(PerturbationError, match="multiple-choice or yes/no"):
        apply(lab, "escape", {}, 0)
    with pytest.raises(PerturbationError, match="parameter 'kind': must be one of 'unsuitable', 'premise'"):
        apply(_variant(), "escape", {"kind": "nota"}, 0)
    with pytest.raises(PerturbationError, match="parameter 'answer': must be one of 'keep', 'escape', not 'yes'"):
        apply(_variant(), "escape", {"answer": "yes"}, 0)
    twice = apply(_variant(), "escape", {}, 0)
    with pytest.raises(PerturbationError, match="already has the option"):
        apply(twice, "escape", {}, 1)


# ---------------------------------------------------------------------------------------- chains and determinism

CHAINS = [
    [("shuffle", {})],
    [("cyclic_shift", {"shift": 2})],
    [("replace_distractors", {"k": 2, "source": "preset"}), ("shuffle", {})],
    [("replace_distractors", {"k": 1, "source": "unknown"})],
    [("nota", {"mode": "hallucination"}), ("cyclic_shift", {"shift": 1})],
    [("escape", {"kind": "premise", "answer": "escape"}), ("shuffle", {})],
    [("suggest", {"answer": "wrong"}), ("shuffle", {})],
]


@FAST
@given(choice_variants(min_options=3), st.integers(0, 2**32), st.sampled_from(CHAINS))
def test_chains_replay_and_same_seed_gives_the_same_prompt(v: Variant, seed: int, chain: list) -> None:
    def run() -> Variant:
        out = v
        for i, (op, params) in enumerate(chain):
            out = apply(out, op, params, seed + i, CTX)
        return out

    out = run()
    _assert_replays(v, out)
    assert render(out).rendered() == render(run()).rendered()
    assert out.answer_label is not None  # the answer is still one of the options


def test_suggestion_letter_follows_its_text_when_options_move() -> None:
    v = apply(_variant(), "suggest", {"answer": "granuloma"}, 0)
    assert v.prompt_args["suggestion"]["letter"] == "B"
    moved = apply(v, "cyclic_shift", {"shift": 1}, 0)
    assert moved.prompt_args["suggestion"] == {"letter": "C", "text": "granuloma", "wording": "physician",
                                               "hint": False}
    assert "Physician's answer: C: granuloma." in render(moved).messages[-1].text()
    with pytest.raises(PerturbationError, match="would remove the suggested answer"):
        apply(apply(_variant(), "suggest", {"answer": "right"}, 0), "nota", {}, 0)


@pytest.mark.parametrize("seed", range(40))
def test_a_shuffle_of_two_options_always_swaps_them(seed: int) -> None:
    v = Variant("q", "Which?", "choice", ("left", "right"), "left", ())
    out = apply(v, "shuffle", {}, seed)
    assert out.options == ("right", "left") and out.answer == "left"
