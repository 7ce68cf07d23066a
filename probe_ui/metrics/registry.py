"""The metric registry: every metric family registered once, like the perturbations.

A family is what a paper (or we) report over one model's scored answers: MediConfusion's set accuracy, ProbMed's
accuracy with adversarial pairs, MedVH's characterization, ... Each registration says

- ``detect``: the rule that finds the family's data in a prepared answer table (:func:`probe_ui.metrics.frame.
  prepare`); it returns a short reason ("attributes.qa_type") or None;
- ``attributes``: the variant attributes its functions read (``prepare`` extracts exactly these, once);
- ``headline``: the few figures of a computed block that the Stress summary, the Results tab and the report show
  as columns (label → a metric leaf: a MetricValue dict or a number); the whole block stays in ``score --json``;
- its definitions: ``paper`` (the paper's own, exact: what to quote next to the paper) and/or ``clean`` (ours,
  where the paper's code has quirks worth fixing). A family with one definition has only that one.

Add a family with one module that defines its functions and registers them::

    @metric("my_family", "paper", description="...", detect=lambda d: "why" if ... else None,
            attributes=("my_attr",), headline=lambda block: {"score": block["score"]})
    def my_family(d: pd.DataFrame, ctx: MetricContext) -> dict: ...

in :mod:`probe_ui.metrics`, in a benchmark's folder or in a plugin (:mod:`probe_ui.registry`): it is found because
it is there. ``probe-ui score``, the Stress tab, the Results tab and the report
pick it up from here; suites name families by their registered name (checked when :mod:`probe_ui.presets.suites` is
imported).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import pandas as pd

from probe_ui.errors import ProbeUIError
from probe_ui.registry import Registry

DEFINITIONS = ("paper", "clean")
#: how a caller asks for a definition: "auto" = the paper's under the legacy parser, ours under the robust one
DEFINITION_CHOICES = ("auto", *DEFINITIONS)


class MetricError(ProbeUIError, ValueError):
    """An unknown metric family or definition, or a family registered inconsistently."""


@dataclass(frozen=True)
class MetricContext:
    """Settings a family may read: bootstrap resamples and seed, MedVH's characterization weights, and ``detail``:
    False when only the headline figures are wanted (a bootstrap replicate), so a family may skip its breakdowns."""

    n_boot: int = 2000
    seed: int = 0
    medvh_weights: tuple[float, float] = (0.5, 0.5)
    detail: bool = True


Compute = Callable[[pd.DataFrame, MetricContext], Any]
Detect = Callable[[pd.DataFrame], "str | None"]
Headline = Callable[[Any], dict[str, Any]]


@dataclass
class MetricFamily:
    name: str
    description: str
    detect: Detect
    attributes: tuple[str, ...] = ()
    headline: Headline = field(default=lambda block: {})
    definitions: dict[str, Compute] = field(default_factory=dict)
    order: int = 100  # where the family shows among the others (paper families first, our own after)

    def definition_for(self, wanted: str) -> str:
        """The definition to use when ``wanted`` ("paper" or "clean") is asked: that one, else the only one."""
        if wanted in self.definitions:
            return wanted
        return next(d for d in DEFINITIONS if d in self.definitions)

    def compute(self, d: pd.DataFrame, ctx: MetricContext, wanted: str) -> tuple[str, Any]:
        which = self.definition_for(wanted)
        return which, self.definitions[which](d, ctx)


def check_suites() -> None:
    """Suites name metric families; an unknown name fails loudly once every family is discovered."""
    from probe_ui.presets.suites import SUITES

    for s in SUITES.values():
        check_names(s.metrics, f"suite '{s.name}'")


#: every metric family: the modules of :mod:`probe_ui.metrics`, the benchmarks' ``metric.py`` and plugins
FAMILIES: Registry[MetricFamily] = Registry("metric", packages=("probe_ui.metrics", "probe_ui.benchmarks"),
                                            error=MetricError, check=check_suites)


def metric(name: str, definition: str, *, description: str = "", detect: Detect | None = None,
           attributes: tuple[str, ...] = (), headline: Headline | None = None, order: int = 100,
           figures: dict[str, str] | None = None,
           explain: dict[str, Explanation] | None = None) -> Callable[[Compute], Compute]:
    """Register ``fn`` as the ``definition`` ("paper" or "clean") of family ``name``.

    The first registration of a family gives its description, detection rule, attributes and headline; a second
    registration (the other definition) may leave them out. ``figures``: each headline label (or label pattern,
    e.g. ``"AUC {perturbation}"``) with what it counts, in words (:func:`figure`); ``explain``: each of those
    labels with its full definition in words (:class:`Explanation`: the metrics glossary)."""
    if definition not in DEFINITIONS:
        raise MetricError(f"metric '{name}': definition must be one of {', '.join(DEFINITIONS)}, not {definition!r}")
    stray = set(explain or {}) - set(figures or {})
    if stray:
        raise MetricError(f"metric '{name}': explain= names {', '.join(sorted(stray))}, which figures= does not")
    for label, meaning in (figures or {}).items():
        figure(label, meaning, family=name, explain=(explain or {}).get(label))

    def deco(fn: Compute) -> Compute:
        fam = FAMILIES.loaded().get(name)
        if fam is None:
            if detect is None:
                raise MetricError(f"metric '{name}' is registered without a detection rule")
            fam = MetricFamily(name, description or (fn.__doc__ or "").strip().split("\n")[0],
                                                detect, tuple(attributes), headline or (lambda block: {}),
                                                order=order)
            FAMILIES.put(fam)
        elif definition in fam.definitions:
            raise MetricError(f"metric '{name}' already has a {definition} definition")
        else:
            fam.attributes = tuple(dict.fromkeys(fam.attributes + tuple(attributes)))
        fam.definitions[definition] = fn
        return fn

    return deco


def families() -> list[MetricFamily]:
    """The registered families in display order."""
    return sorted(FAMILIES.entries(), key=lambda f: (f.order, f.name))


def unregister(name: str) -> None:
    """Remove a family (tests register throwaway ones)."""
    FAMILIES.remove(name)


def get_family(name: str) -> MetricFamily:
    return FAMILIES.get(name)


def check_names(names: tuple[str, ...] | list[str], where: str) -> None:
    """Fail loudly when ``where`` (e.g. "suite 'rotations'") names a metric family that is not registered."""
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise MetricError(f"{where} names unknown metric {', '.join(map(repr, unknown))}; registered: "
                          f"{', '.join(FAMILIES)}")


def attribute_keys() -> tuple[str, ...]:
    """Every variant attribute some registered family reads (what ``prepare`` extracts)."""
    return tuple(dict.fromkeys(a for f in families() for a in f.attributes))


def resolve_definition(definition: str, parser: str) -> str:
    """"paper" or "clean" for a caller's choice: ``auto`` is the paper's under the legacy parser, ours otherwise."""
    if definition not in DEFINITION_CHOICES:
        raise MetricError(f"unknown definition '{definition}'; expected one of {', '.join(DEFINITION_CHOICES)}")
    if definition == "auto":
        return "paper" if parser == "legacy" else "clean"
    return definition


def describe() -> list[dict[str, str]]:
    """One row per family (name, description, definitions, attributes): ``probe-ui metrics`` prints these."""
    return [{"name": f.name, "description": f.description, "definitions": ", ".join(f.definitions),
             "attributes": ", ".join(f.attributes)} for f in families()]


# ---- figures: one name, one definition, everywhere ------------------------------------------------------------------
@dataclass(frozen=True)
class Explanation:
    """A figure's definition in words, written beside the code that computes it: the metrics glossary
    (docs/metrics.md, generated from these), ``probe-ui metrics --explain NAME`` and the Results tab all read it."""

    measures: str  # what it measures, for a clinician
    paper: str  # where it comes from (a paper and its section, or "probe-ui's own")
    computed: str  # how it is computed: numerator, denominator, what counts as right
    chance: str  # what a random guesser would score, or why there is no such reference
    ci: str  # how to read its confidence interval (or why it has none)

    HEADINGS = (("measures", "What it measures"), ("paper", "Where it comes from"),
                ("computed", "How it is computed"), ("chance", "Random-guess reference"),
                ("ci", "How to read its interval"))

    def parts(self) -> list[tuple[str, str]]:
        """(heading, text) in reading order."""
        return [(heading, getattr(self, key)) for key, heading in self.HEADINGS]


@dataclass(frozen=True)
class Figure:
    """A number the views show by name (the Results and Stress tabs, ``probe-ui score``, the report): the one name
    every view gives it, and what it counts, in words (shown beside it). Two different quantities never share a
    name: the answer flip rate (answers that change) and the correctness flip rate (right/wrong that changes) are
    two figures. ``name`` may hold ``{placeholders}`` (``"AUC {perturbation}"``) for figures named after data."""

    name: str
    meaning: str
    family: str = ""  # the metric family whose headline it is ("" for the figures every run has)
    percent: bool = True  # a view may write it "<name> %"
    explain: Explanation | None = None  # its full definition in words (the glossary)

    @property
    def pattern(self) -> re.Pattern[str]:
        parts = re.split(r"\{[a-z_]+\}", self.name)
        return re.compile("^" + ".+".join(re.escape(p) for p in parts) + "$")


FIGURES: dict[str, Figure] = {}


def figure(name: str, meaning: str, *, family: str = "", percent: bool = True,
           explain: Explanation | None = None) -> str:
    """Register a figure's name and meaning (and its full definition, ``explain``); returns the name (views label
    columns with it). The same name registered again with another meaning is refused: one name, one definition."""
    old = FIGURES.get(name)
    if old is not None and (old.meaning, old.family) != (meaning, family):
        raise MetricError(f"figure '{name}' is already registered with another meaning ({old.meaning!r})")
    if old is not None and explain is None:
        return name  # the same figure again (a module imported twice): keep its full definition
    FIGURES[name] = Figure(name, meaning, family, percent, explain)
    return name


def find_figure(label: str, family: str | None = None) -> Figure | None:
    """The figure a view's label names: the name itself, or written ``"<name> %"`` or ``"<family>: <name>"`` (the
    Stress summary's family columns); a pattern figure matches its filled-in name. ``family`` (or the label's
    prefix): only that family's headline figures count, so a family cannot borrow a general name such as
    "accuracy" for another quantity. None when no figure has it."""
    FAMILIES.discover()  # the figures are registered by the family modules
    text = label.strip()
    fam, sep, rest = text.partition(": ")
    if sep and fam in FAMILIES:
        family, text = fam, rest
    want = family or ""
    for candidate in (text, text.removesuffix(" %")):
        exact = FIGURES.get(candidate)
        if exact is not None and exact.family == want:
            return exact
        for f in FIGURES.values():
            if "{" in f.name and f.family == want and f.pattern.match(candidate):
                return f
    return None


def meaning(label: str, family: str | None = None) -> str:
    """What a view's label counts, in words ("" for a label that is not a figure)."""
    f = find_figure(label, family)
    return f.meaning if f is not None else ""


def glossary_html(labels: list[str] | tuple[str, ...], family: str | None = None) -> str:
    """The meanings of the figures named by ``labels`` as a short HTML list (escaped), for under a table; each
    with its full definition folded beneath it (the glossary's text)."""
    from html import escape

    seen: dict[str, Figure] = {}
    for label in labels:
        f = find_figure(label, family)
        if f is not None:
            seen.setdefault(f.name, f)
    if not seen:
        return ""
    items = []
    for n, f in seen.items():
        more = ""
        if f.explain is not None:
            body = "".join(f"<p><b>{escape(h)}.</b> {escape(t)}</p>" for h, t in f.explain.parts())
            more = f"<details class='pu-explain'><summary>more about {escape(n)}</summary>{body}</details>"
        items.append(f"<li><b>{escape(n)}</b>: {escape(f.meaning)}{more}</li>")
    return f"<ul class='pu-glossary'>{''.join(items)}</ul>"


# ---- the metrics glossary: every figure's definition, from the code -------------------------------------------------
def glossary_figures() -> list[Figure]:
    """Every registered figure, the ones every run has first, then each family's in display order."""
    order = {f.name: i for i, f in enumerate(families())}
    return sorted(FIGURES.values(), key=lambda f: (f.family != "", order.get(f.family, 999)))


def explain_figures(name: str) -> list[Figure]:
    """The figures ``probe-ui metrics --explain NAME`` prints: a figure by its name (any family; "set accuracy",
    "set_accuracy", "AUC {perturbation}" or a filled-in "AUC blur"), or every figure of a family ("mediconfusion").
    Raises MetricError naming what there is."""
    wanted = name.strip().replace("_", " ").lower()
    if name.strip() in FAMILIES:
        found = [f for f in glossary_figures() if f.family == name.strip()]
        if found:
            return found
    found = [f for f in glossary_figures() if f.name.lower() == wanted or f.name.lower().replace("_", " ") == wanted
             or ("{" in f.name and re.match(f.pattern.pattern, name.strip(), re.IGNORECASE))]
    if not found:
        near = near_names(name)
        hint = (f"did you mean: {', '.join(repr(n) for n in near)}? ('probe-ui metrics' lists every metric)" if near
                else f"'probe-ui metrics' lists every metric; families: {', '.join(FAMILIES)}")
        raise MetricError(f"no metric named '{name}'; {hint}")
    return found


def near_names(name: str, most: int = 5) -> list[str]:
    """Metric and family names near ``name``, for a mistyped ``--explain``: those it begins (``set acc``), then
    those with it as a word (``flip``: answer flip rate), then difflib's close matches; a templated name
    ("AUC {perturbation}") only by the words before its placeholder."""
    import difflib

    wanted = name.strip().replace("_", " ").lower()
    names = list(dict.fromkeys([*(f.name for f in glossary_figures()), *FAMILIES]))
    plain = {n.split("{")[0].strip().replace("_", " ").lower() or n.lower(): n for n in names}
    if not wanted:
        return []
    starts = [n for key, n in plain.items() if key.startswith(wanted) or (len(key) >= 3 and wanted.startswith(key))]
    words = [n for key, n in plain.items() if re.search(rf"\b{re.escape(wanted)}", key)]
    close = [plain[k] for k in difflib.get_close_matches(wanted, list(plain), n=most, cutoff=0.6)]
    return list(dict.fromkeys([*starts, *words, *close]))[:most]


def explain_text(fig: Figure) -> str:
    """One figure's glossary entry as plain text (``probe-ui metrics --explain``)."""
    fam = f" ({fig.family})" if fig.family else ""
    lines = [f"{fig.name}{fam}: {fig.meaning}"]
    if fig.explain is None:
        return lines[0]
    for heading, text in fig.explain.parts():
        lines.append(f"  {heading}: {text}")
    return "\n".join(lines)


def glossary_markdown() -> str:
    """docs/metrics.md: the glossary page, generated from the registrations (tests/test_metrics_glossary.py keeps
    the file equal to this)."""
    out = ["# Metrics glossary", "",
           "Every figure probe-ui shows, with its definition in words. This page is generated from the code "
           "(each metric's `explain=` in its registration; `probe-ui metrics --explain NAME` prints the same text, "
           "and the Results tab folds it under each figure): regenerate it with "
           "`probe-ui metrics --glossary > docs/metrics.md`. The exact formulas of each paper are in "
           "[the paper definitions](reference.md) (docs/reference.md §4).", ""]
    current = None
    for f in glossary_figures():
        if f.family != current:
            current = f.family
            if current:
                fam = FAMILIES.get(current)
                out += [f"## {current}", "", fam.description if fam else "", ""]
            else:
                out += ["## Every run", "", "Figures every run has, per model, whatever it asked.", ""]
        out += [f"### {f.name}", "", f.meaning + ("." if not f.meaning.endswith(".") else ""), ""]
        if f.explain is not None:
            out += [f"- **{h}.** {t}" for h, t in f.explain.parts()] + [""]
    return "\n".join(out).rstrip() + "\n"
