"""MedVH (dongzizhu/MedVH): hallucination probes (none-of-the-above, clinically incorrect premises, false
confidence)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from probe_ui.benchmarks.base import Benchmark, register_benchmark
from probe_ui.benchmarks.medvh import importer

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.reading.answers import Answer


@register_benchmark
class MedVH(Benchmark):
    name = "medvh"
    order = 30
    importer: ClassVar[Importer | None] = importer
    legacy_mode = "medvh"
    legacy_label = "MedVH's own parser"
    names = ("medvh",)
    source_names = ("medvh",)
    templates = ("medvh-mc",)
    presets = ("medvh_nota.yaml",)
    suites = ("medvh",)

    def by_attributes(self, attrs: dict[str, Any]) -> bool:
        return "medvh_task" in attrs

    def legacy_gt(self, gt: str | None, attrs: dict[str, Any]) -> str | None:
        """The file's own ``gt`` ("C" or "A: Yes") where the import kept it: the original compares with that."""
        return attrs["gt"] if isinstance(attrs.get("gt"), str) else gt

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        from probe_ui.benchmarks.medvh import legacy  # the reader: loaded when a reply is read

        return legacy.parse(text, kind, labels, options, gt)
