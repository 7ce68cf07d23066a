"""Declared perturbation parameters: every registered perturbation's specs describe what validate() accepts, and
validate() (which apply() calls on every path) refuses the rest naming the parameter."""

from __future__ import annotations

import inspect
import math
from typing import Any

import pytest

from probe_ui.items import Variant
from probe_ui.perturb import PerturbationError, all_perturbations, apply, get
from probe_ui.perturb.params import ParamSpec

PERTURBATIONS = all_perturbations()
KINDS = {"int", "float", "bool", "choice", "text", "points", "point", "box", "list", "mapping", "json"}
ALL_SPECS = [(p.name, s) for p in PERTURBATIONS for s in p.specs()]
SPEC_IDS = [f"{op}.{s.name}" for op, s in ALL_SPECS]


def _required(op: str) -> dict[str, Any]:
    """Valid values for a perturbation's required parameters, so that one other parameter can be tried alone."""
    out: dict[str, Any] = {}
    for s in get(op).specs():
        if s.required:
            out[s.name] = s.choices[0] if s.choices else 0
    return out


def test_specs_follow_the_signature_and_describe_each_parameter() -> None:
    for p in PERTURBATIONS:
        specs = p.specs()
        assert [s.name for s in specs] == list(p.parameters()), p.name  # signature order; no ctx
        assert "answer_map" not in {s.name for s in specs}
        for s in specs:
            where = f"{p.name}.{s.name}"
            assert isinstance(s, ParamSpec) and s.kind in KINDS, where
            assert s.required == (p.parameters()[s.name] is inspect.Parameter.empty), where
            assert s.default is None if s.required else s.default == p.parameters()[s.name], where
            assert s.help and "\n" not in s.help and len(s.help) < 200, where
            assert (s.choices is not None) == (s.kind == "choice"), where
            if s.kind not in ("int", "float"):
                assert s.minimum is None and s.maximum is None, where
            if s.minimum is not None and s.maximum is not None:
                assert s.minimum < s.maximum, where


def test_rotate_dots_and_nota_specs_as_the_app_reads_them() -> None:
    rotate = {s.name: s for s in get("rotate").specs()}
    assert rotate["angle"] == ParamSpec("angle", "float", 90, False, -360, 360, None, rotate["angle"].help)
    assert rotate["fill"].kind == "choice" and rotate["fill"].choices == ("black", "white")
    dots = {s.name: s for s in get("dots").specs()}
    assert (dots["points"].kind, dots["colours"].kind, dots["placement"].choices) == \
        ("points", "list", ("given", "uniform", "mask", "ultrasound"))
    assert (dots["n"].minimum, dots["n"].maximum, dots["threshold"].maximum) == (1, 10, 255)
    assert dots["target"].kind == "choice" and dots["target"].choices == ("shallowest", "deepest")
    nota = get("nota").specs()
    assert [(s.name, s.kind, s.default, s.choices) for s in nota] == [
        ("mode", "choice", "hallucination", ("hallucination", "baseline")),
        ("position", "choice", "seeded", ("seeded", "last"))]
    assert [s.name for s in get("marker").specs() if s.kind in ("point", "box")] == ["box", "arrow", "tail"]


@pytest.mark.parametrize("op, spec", [(op, s) for op, s in ALL_SPECS if not s.required],
                         ids=[i for i, (_, s) in zip(SPEC_IDS, ALL_SPECS) if not s.required])
def test_a_default_validates_and_comes_back_as_it_was(op: str, spec: ParamSpec) -> None:
    """Every optional parameter's default (a required one has none; one left out is named by
    test_unknown_and_missing_parameters_are_named_with_what_is_allowed)."""
    got = get(op).validate({**_required(op), spec.name: spec.default})
    assert got[spec.name] == spec.default and type(got[spec.name]) is type(spec.default)


@pytest.mark.parametrize("op, spec", [(op, s) for op, s in ALL_SPECS if s.kind == "choice"],
                         ids=[i for i, (_, s) in zip(SPEC_IDS, ALL_SPECS) if s.kind == "choice"])
def test_every_choice_is_accepted(op: str, spec: ParamSpec) -> None:
    assert spec.choices
    for choice in spec.choices:
        assert get(op).validate({**_required(op), spec.name: choice})[spec.name] == choice


@pytest.mark.parametrize("op, spec", [(op, s) for op, s in ALL_SPECS if s.kind in ("int", "float")],
                         ids=[i for i, (_, s) in zip(SPEC_IDS, ALL_SPECS) if s.kind in ("int", "float")])
def test_numbers_out_of_range_are_refused_naming_the_parameter(op: str, spec: ParamSpec) -> None:
    pert = get(op)
    outside = [v for v in ((spec.minimum - 1) if spec.minimum is not None else None,
                           (spec.maximum + 1) if spec.maximum is not None else None) if v is not None]
    for value in outside + ["90deg", float("nan"), float("inf"), True]:
        with pytest.raises(PerturbationError, match=f"^parameter '{spec.name}': must be ") as err:
            pert.validate({**_required(op), spec.name: value})
        assert err.value.param == spec.name
    lo = spec.minimum if spec.minimum is not None else -3
    hi = spec.maximum if spec.maximum is not None else lo + 10
    middle = (lo + hi) / 2
    middle = math.floor(middle) if spec.kind == "int" else middle
    assert pert.validate({**_required(op), spec.name: middle})[spec.name] == middle


@pytest.mark.parametrize("op, spec", ALL_SPECS, ids=SPEC_IDS)
def test_a_list_around_a_valid_value_and_nan_are_refused(op: str, spec: ParamSpec) -> None:
    # the preset author's `axis: [h]`: a list where one value belongs (or a list nested once more) is refused
    valid = spec.default if spec.default is not None else {
        "choice": (spec.choices or ("x",))[0], "int": 1, "float": 1.5, "points": [[1, 2]], "point": [1, 2],
        "box": [1, 2, 3, 4], "text": "x", "list": ["red"]}.get(spec.kind, "x")
    for value in ([valid], float("nan")):
        with pytest.raises(PerturbationError, match=f"^parameter '{spec.name}': must be .*, not ") as err:
            get(op).validate({**_required(op), spec.name: value})
        assert err.value.param == spec.name


def test_an_int_for_a_real_number_stays_an_int() -> None:
    # a variant's id hashes its recorded parameters: 90 must not become 90.0
    checked = 0
    for op, spec in ALL_SPECS:
        if spec.kind != "float":
            continue
        lo = math.ceil(spec.minimum) if spec.minimum is not None else 0
        for value in (lo, lo + 1):
            if spec.maximum is not None and value > spec.maximum:
                continue
            try:
                got = get(op).validate({spec.name: value})[spec.name]
            except PerturbationError:
                continue  # an exclusive bound
            assert type(got) is int and got == value, f"{op}.{spec.name}"
            checked += 1
    assert checked > 10


def test_unknown_and_missing_parameters_are_named_with_what_is_allowed() -> None:
    with pytest.raises(PerturbationError, match="^no parameter 'angel'; rotate takes angle, fill, answer_map$") as e:
        get("rotate").validate({"angel": 90})
    assert e.value.param == "angel"
    with pytest.raises(PerturbationError, match="^no parameter 1; rotate takes"):
        get("rotate").validate({1: 90})
    with pytest.raises(PerturbationError, match="^needs parameter 'style': one of 'original', 'shorten', "):
        get("phrasing").validate({})
    with pytest.raises(PerturbationError, match="^needs parameter 'shift': a whole number$"):
        get("cyclic_shift").validate({})
    with pytest.raises(PerturbationError, match="^parameters must be a mapping"):
        get("rotate").validate(["angle", 90])  # type: ignore[arg-type]


@pytest.mark.parametrize("op, params, message", [
    ("rotate", {"angle": "90deg"}, "parameter 'angle': must be a number between -360 and 360, not '90deg'"),
    ("dots", {"colours": ["red", "red"]}, "parameter 'colours': must be a list of 1 to 10 different colour names"),
    ("dots", {"colours": ["reddish"]}, "parameter 'colours': must be a list of 1 to 10 different colour names"),
    ("dots", {"points": [[1, 2], [3]]}, "parameter 'points': must be a list of 1 to 10 points [x, y]"),
    ("dots", {"radius_fraction": "1/2"}, "parameter 'radius_fraction': must be a number (or a fraction such as "
                                         "'1/70') above 0 and below 0.5, not '1/2'"),
    ("marker", {"colour": "blu"}, "parameter 'colour': must be a colour name"),
    ("crop", {"resize": "false"}, "parameter 'resize': must be true or false, not 'false'"),
    ("escape", {"text": "  "}, "parameter 'text': must be text that is not blank, not '  '"),
    ("nota", {"position": 2.5}, "parameter 'position': must be one of 'seeded', 'last' or a whole number, not 2.5"),
    ("jpeg", {"answer_map": {"a": ["b"]}}, "parameter 'answer_map': must be a mapping of answer to new answer"),
    ("rotate", {"angle": 10 ** 400}, "parameter 'angle': must be a number between -360 and 360, not 1000"),
])
def test_hostile_values_are_refused_in_one_line(op: str, params: dict[str, Any], message: str) -> None:
    with pytest.raises(PerturbationError) as err:
        get(op).validate(params)
    assert str(err.value).startswith(message) and "\n" not in str(err.value) and len(str(err.value)) < 300


def test_valid_values_come_back_as_given() -> None:
    given = {"placement": "given", "points": [[1, "1/3"], [0.5, 2]], "radius_fraction": "1/70",
             "colours": ["red", "#00ff00"], "labels": ["a", "b"], "target": 1, "answer_map": {"red": "green"}}
    assert get("dots").validate(given) == given
    assert list(get("dots").validate(given)) == list(given)  # the order given (a provenance record keeps it)
    assert get("nota").validate({"position": -1}) == {"position": -1}
    assert get("suggest").validate({"answer": "B"}) == {"answer": "B"}


def test_apply_validates_and_names_the_perturbation_and_the_parameter() -> None:
    v = Variant("i", "Which?", "choice", ("a", "b", "c"), "a")
    with pytest.raises(PerturbationError) as err:
        apply(v, "nota", {"mode": "both"}, 0)
    assert str(err.value) == "nota: parameter 'mode': must be one of 'hallucination', 'baseline', not 'both'"
    assert err.value.param == "mode"
    out = apply(v, "nota", {"mode": "baseline", "position": 1, "answer_map": {"a": "b"}}, 7)
    assert out.provenance[-1]["params"] == {"mode": "baseline", "position": 1, "answer_map": {"a": "b"}}
    assert out.answer == "b"
