"""Entries carry their words (issue 49): a perturbation registered in one file with a label, a phrase and a sweep is
labelled, phrased and swept by labels.py, conditions.py and the severity sweep without any table edit; one declared
without them falls back to its code name's words and its summary. The same for a suite's and a template's label."""

from __future__ import annotations

import pytest

from probe_ui import conditions, labels
from probe_ui.perturb import REGISTRY, Sweep, register, sweep_axis
from probe_ui.presets import suites
from probe_ui.prompts import TEMPLATES, Template, register_template
from probe_ui.views import plots


@pytest.fixture
def gamma():
    @register("plugin_gamma", "Change the gamma curve (severity 1-3).", "unchanged", label="gamma curve",
              phrase=lambda p: f"gamma changed, level {p.get('level', 1)}",
              sweep=Sweep(75, param="level", levels=(1, 2, 3), top=3, axis="gamma level"))
    def plugin_gamma(variant, rng, *, level: int = 1):
        return variant

    @register("plugin_plain", "Do something plain. (More words.)", "unchanged")
    def plugin_plain(variant, rng):
        return variant

    yield
    REGISTRY.remove("plugin_gamma")
    REGISTRY.remove("plugin_plain")


def test_a_perturbation_carries_its_label_phrase_and_sweep(gamma) -> None:
    assert labels.perturbation("plugin_gamma") == "gamma curve"
    assert labels.perturbation_name("Gamma  Curve") == "plugin_gamma"  # a label typed back is its code name
    assert labels.choices(["plugin_gamma"]) == [("gamma curve", "plugin_gamma")]
    assert conditions.step_phrase("plugin_gamma", {"level": 2}) == "gamma changed, level 2"
    assert conditions.describe([{"op": "rotate", "params": {"angle": 90}},
                                {"op": "plugin_gamma", "params": {"level": 3}}]) \
        == "rotated 90° + gamma changed, level 3"
    # swept after downscale (70) and before rotate (80), at its own parameter and levels
    perts = suites.sweep_perturbations()
    assert perts.index("downscale") < perts.index("plugin_gamma") < perts.index("rotate")
    assert suites.default_levels("plugin_gamma") == (1, 2, 3)
    assert [(c.name, c.steps) for c in suites.sweep_conditions("plugin_gamma", [2])] \
        == [("severity/plugin_gamma-2", (("plugin_gamma", {"level": 2}),))]
    assert suites.parse_severity_condition("severity/plugin_gamma-3") == ("plugin_gamma", 3)
    with pytest.raises(suites.SuiteError, match=r"1\.\.3"):
        suites.severity_condition("plugin_gamma", 4)
    assert sweep_axis("plugin_gamma").axis == "gamma level" and plots.level_label("plugin_gamma", 2) == "2"


def test_a_perturbation_without_words_falls_back_to_its_name_and_summary(gamma) -> None:
    assert labels.perturbation("plugin_plain") == "plugin plain"
    assert conditions.step_phrase("plugin_plain", {}) == "do something plain"
    assert "plugin_plain" not in suites.sweep_perturbations()
    with pytest.raises(suites.SuiteError, match="unknown sweep perturbation 'plugin_plain'"):
        suites.sweep_conditions("plugin_plain")
    assert suites.parse_severity_condition("severity/plugin_plain-1") is None
    assert plots.level_label("plugin_plain", 2) == "2" and sweep_axis("plugin_plain").axis == "severity"


def test_the_built_in_sweeps_keep_their_axes() -> None:
    assert plots.level_label("rotate", 45) == "45°" and plots.level_label("blur", 3) == "3"
    assert plots.level_label("rotate", 0) == "original"
    assert sweep_axis("rotate").axis == "rotation (degrees)" and sweep_axis("noise").axis == "severity"
    assert suites.severity_condition("rotate", 45).steps == (("rotate", {"angle": 45}),)


def test_a_suite_and_a_template_carry_their_label() -> None:
    suites.register_suite(suites.Suite("plugin-suite", "a test suite", ("groups",), lambda v, ctx: [],
                                       label="the plugin's suite"))
    register_template(Template("plugin-template", ("choice",), lambda v: (None, v.question), 32, "a test template"))
    try:
        assert labels.suite("plugin-suite") == "the plugin's suite"
        assert labels.template("plugin-template") == "plugin template"  # none declared: its code name in words
        assert labels.suites()["plugin-suite"] == "the plugin's suite"
    finally:
        suites.SUITES.remove("plugin-suite")
        TEMPLATES.remove("plugin-template")


def test_a_pressure_carries_its_words() -> None:
    assert conditions.pressure_words("doubt") == '"Are you sure?"'
    assert conditions.pressure_words("plugin_pressure") == "plugin_pressure"
    assert conditions.step_phrase("pushback", {"pressure": "plugin_pressure"}) == "pushed back: plugin pressure"
