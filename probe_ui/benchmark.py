"""What a benchmark is: one folder, ``probe_ui/benchmarks/<name>/``, whose ``__init__.py`` registers a
:class:`Benchmark` subclass (:func:`probe_ui.benchmarks.register_benchmark`), beside the modules it names:

- ``importer.py``: the benchmark's result and question files into runs and presets (:mod:`probe_ui.importers`);
- ``legacy.py``: the original benchmark's own answer parser, quirk for quirk (``probe-ui score --parser legacy``);
- ``metric.py``: its metric family (:mod:`probe_ui.metrics.registry`; found because it is there);
- its detection rule: which replies its legacy parser reads (the methods below);
- ``suite.py``: its stress suites, registered with :func:`~probe_ui.presets.suites.register_suite` (found because the
  suite registry walks this package) and named in :attr:`Benchmark.suites`;
- its shipped presets (``presets/<file>.yaml``, named in :attr:`Benchmark.presets`) and its prompt templates
  (registered in :data:`probe_ui.prompts.TEMPLATES`, named in :attr:`Benchmark.templates`; a new benchmark may
  register its own from its folder with :func:`~probe_ui.prompts.register_template`).

A benchmark needs none of these but a name: MedBLINK has a metric family and presets, and reads its replies with
BLINK's parser. Adding a benchmark is adding a folder (or a plugin file, :mod:`probe_ui.registry`).

Why here and not in ``benchmarks/``: the rooms below the benchmarks (reading a reply with a legacy parser, a
benchmark's declared unit of evidence, scoring's detection rule, the importers' order) ask what the benchmarks
declare; they read this registry, which finds the folders by walking the package by name, and never import a
benchmark's code (docs/dev/architecture.md, the layer order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from probe_ui.registry import Registry

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.reading.answers import Answer


class Benchmark:
    """One benchmark. ``legacy_mode`` is the name its legacy parser goes by (``legacy_mode`` column, ``--parser
    legacy`` notes); a benchmark without a parser of its own leaves :meth:`parse_legacy` alone."""

    #: the benchmark's name (its folder's)
    name: ClassVar[str]
    #: the order its detection rules are tried in, among the benchmarks (lower first)
    order: ClassVar[int] = 100
    #: its importer module, if it has one (a :class:`probe_ui.importers.Importer`)
    importer: ClassVar[Importer | None] = None
    #: the name its legacy parser goes by ("" when it has none)
    legacy_mode: ClassVar[str] = ""
    #: its legacy parser as a page names it (an answer read by it: method ``legacy-<legacy_mode>``); "" : in words
    legacy_label: ClassVar[str] = ""
    #: the question kind its legacy parser reads ("choice", "yesno"): other kinds are read robustly
    legacy_kind: ClassVar[str] = "choice"
    #: names a run's ``settings.benchmark`` or a variant's ``attributes.benchmark`` may give that mean this benchmark
    names: ClassVar[tuple[str, ...]] = ()
    #: text that, found in a variant's ``source`` (its preset or file), means this benchmark
    source_names: ClassVar[tuple[str, ...]] = ()
    #: its prompt templates (names in :data:`probe_ui.prompts.TEMPLATES`); by default (:meth:`by_prompt`) a reply
    #: to one of them is read by its legacy parser
    templates: ClassVar[tuple[str, ...]] = ()
    #: its shipped presets (file names in ``presets/``)
    presets: ClassVar[tuple[str, ...]] = ()
    #: its stress suites (names in :data:`probe_ui.presets.suites.SUITES`)
    suites: ClassVar[tuple[str, ...]] = ()
    #: the unit its answers cluster in, where coarser than the item (:mod:`probe_ui.metrics.units`): (its kind, as a
    #: page counts it, and where a row gives it: ``attributes.<key>`` or ``item_group``), e.g. ProbMed's
    #: ``("image", "attributes.image_id")``; None: the item
    unit: ClassVar[tuple[str, str] | None] = None

    # ---- the detection rule: which replies this benchmark's legacy parser reads ---------------------------------
    def by_attributes(self, attrs: dict[str, Any]) -> bool:
        """Whether a variant's attributes say it is this benchmark's (e.g. ProbMed's ``qa_type`` and
        ``image_type``)."""
        return False

    def by_prompt(self, prompt: str, run_prompt: str | None) -> bool:
        """Whether the prompt template a reply answered says it is this benchmark's."""
        return prompt in self.templates

    def legacy_gt(self, gt: str | None, attrs: dict[str, Any]) -> str | None:
        """The ground truth its legacy parser compares with (default: the variant's answer label)."""
        return gt

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        """Read a reply exactly as the benchmark's original code did."""
        raise NotImplementedError(f"benchmark '{self.name}' has no legacy parser")


#: every benchmark: the folders of :mod:`probe_ui.benchmarks` and plugins
BENCHMARKS: Registry[Benchmark] = Registry("benchmark", packages=("probe_ui.benchmarks",), instances=True)

def benchmarks() -> list[Benchmark]:
    """Every benchmark, in detection order."""
    return sorted(BENCHMARKS.entries(), key=lambda b: (b.order, b.name))


_parsers: tuple[int, dict[str, Benchmark]] = (-1, {})


def legacy_parsers() -> dict[str, Benchmark]:
    """Legacy mode name → the benchmark whose parser it is (in detection order). Asked once per reply when a run
    is scored with the legacy parser, so the answer is kept until a benchmark is added or removed."""
    global _parsers
    BENCHMARKS.discover()
    if _parsers[0] != BENCHMARKS.version:
        _parsers = (BENCHMARKS.version, {b.legacy_mode: b for b in benchmarks() if b.legacy_mode})
    return _parsers[1]


def legacy_modes() -> list[str]:
    """The names of every legacy parser (``--parser legacy`` reads a reply with one of these, or robustly)."""
    return list(legacy_parsers())


__all__ = ["BENCHMARKS", "Benchmark", "benchmarks", "legacy_modes", "legacy_parsers"]
