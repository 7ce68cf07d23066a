"""The metrics glossary: one definition in words per figure, written beside the code, read the same by docs/metrics.md,
``probe-ui metrics --explain`` and the Results tab."""

from __future__ import annotations

from pathlib import Path

import pytest

from probe_ui.cli import main
from probe_ui.metrics.registry import (
    FAMILIES,
    FIGURES,
    Explanation,
    MetricError,
    explain_figures,
    explain_text,
    glossary_html,
    glossary_markdown,
    metric,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _every_family_found() -> None:
    """The figures are registered by the family modules, which the registry finds on first use."""
    FAMILIES.discover()


def test_every_figure_has_every_part_of_its_definition() -> None:
    assert len(FIGURES) >= 30
    for f in FIGURES.values():
        assert f.explain is not None, f"figure '{f.name}' has no explain= in its registration"
        for heading, text in f.explain.parts():
            assert len(text.strip()) >= 10, f"figure '{f.name}': '{heading}' is empty"


def test_docs_metrics_md_is_generated_from_the_code() -> None:
    page = (ROOT / "docs" / "metrics.md").read_text(encoding="utf-8")
    assert page == glossary_markdown(), "docs/metrics.md is stale: probe-ui metrics --glossary > docs/metrics.md"
    for f in FIGURES.values():
        assert f"### {f.name}\n" in page and f.explain is not None and f.explain.computed in page


@pytest.mark.parametrize("name, figure", [("set accuracy", "set accuracy"), ("set_accuracy", "set accuracy"),
                                          ("Answer flip rate", "answer flip rate"),
                                          ("AUC blur", "AUC {perturbation}"), ("confusion", "confusion"),
                                          ("precision", "precision")])
def test_explain_prints_the_glossary_text(name: str, figure: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["metrics", "--explain", name]) == 0
    out = capsys.readouterr().out
    f = FIGURES[figure]
    assert out.strip() == explain_text(f)
    assert f.explain is not None and all(text in out for _, text in f.explain.parts())


def test_explain_a_family_and_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert [f.name for f in explain_figures("mediconfusion")] == ["set accuracy", "individual accuracy", "confusion",
                                                              "precision"]
    assert main(["metrics", "--explain", "precisionn"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no metric named 'precisionn'" in err and "did you mean: 'precision'?" in err
    assert "{" not in err and len(err) < 200  # the near names, not every metric's template


def test_the_results_tab_shows_the_same_text() -> None:
    html = glossary_html(["accuracy", "set accuracy"], None) + glossary_html(["set accuracy"], "mediconfusion")
    for name in ("accuracy", "set accuracy"):
        f = FIGURES[name]
        assert f.explain is not None
        for _, text in f.explain.parts():
            assert text.replace("'", "&#x27;") in html, (name, text)


def test_explain_must_name_a_registered_figure() -> None:
    with pytest.raises(MetricError, match="explain= names nope, which figures= does not"):
        metric("glossary_test", "clean", detect=lambda d: None, figures={"x": "y"},
               explain={"nope": Explanation("a" * 10, "b" * 10, "c" * 10, "d" * 10, "e" * 10)})
