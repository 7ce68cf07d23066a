"""ProbMed (eric-ai-lab/ProbMed): yes/no probing questions with adversarial pairs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from probe_ui.benchmarks.base import Benchmark, register_benchmark
from probe_ui.benchmarks.probmed import importer

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.reading.answers import Answer


@register_benchmark
class ProbMed(Benchmark):
    name = "probmed"
    order = 20
    importer: ClassVar[Importer | None] = importer
    legacy_mode = "probmed"
    legacy_label = "ProbMed's own parser"
    legacy_kind = "yesno"
    names = ("probmed",)
    source_names = ("probmed",)
    templates = ("probmed",)
    presets = ("probmed_adversarial.yaml",)
    suites = ("probmed-pairs",)
    unit = ("image", "attributes.image_id")  # every question about one image counts once

    def by_attributes(self, attrs: dict[str, Any]) -> bool:
        return "qa_type" in attrs and "image_type" in attrs

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        from probe_ui.benchmarks.probmed import legacy  # the reader: loaded when a reply is read

        return legacy.parse(text, kind, labels, options, gt)
