"""MediConfusion (AIF4S/MediConfusion): confusing image pairs, one question, two options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from probe_ui.benchmarks.base import Benchmark, register_benchmark
from probe_ui.benchmarks.mediconfusion import importer

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.reading.answers import Answer


@register_benchmark
class MediConfusion(Benchmark):
    name = "mediconfusion"
    order = 10
    importer: ClassVar[Importer | None] = importer
    legacy_mode = "mediconfusion"
    legacy_label = "MediConfusion's own parser"
    names = ("mediconfusion",)
    source_names = ("mediconfusion",)
    templates = ("mediconfusion-mc",)  # and its phrasings, mediconfusion-mc/<style> (by_prompt)
    presets = ("mediconfusion_pairs.yaml",)
    suites = ("mediconfusion-pair", "prompt-variants")
    unit = ("pair", "item_group")  # a confusing pair's two images count once

    def by_prompt(self, prompt: str, run_prompt: str | None) -> bool:
        """Its template's variants (``mediconfusion-mc/<variant>``), or the template itself when the run asked
        for it by name (it is also the default template of every choice item, which says nothing)."""
        return prompt.startswith("mediconfusion-mc/") or (prompt == "mediconfusion-mc" and run_prompt == prompt)

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        from probe_ui.benchmarks.mediconfusion import legacy  # the reader: not needed to list phrasings

        return legacy.parse(text, kind, labels, options, gt)
