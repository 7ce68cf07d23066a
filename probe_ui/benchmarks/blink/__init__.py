"""BLINK (zeyofu/BLINK_Benchmark): multiple-choice visual perception; MedBLINK's replies are read with its
parser too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from probe_ui.benchmarks.base import Benchmark, register_benchmark
from probe_ui.benchmarks.blink import importer

if TYPE_CHECKING:
    from probe_ui.importers import Importer
    from probe_ui.reading.answers import Answer


@register_benchmark
class Blink(Benchmark):
    name = "blink"
    order = 40
    importer: ClassVar[Importer | None] = importer
    legacy_mode = "blink"
    legacy_label = "BLINK's own parser"
    names = ("blink", "medblink")  # MedBLINK follows BLINK's answer parsing
    source_names = ("blink",)
    templates = ("blink-mc",)

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> Answer:
        from probe_ui.benchmarks.blink import legacy  # the reader: loaded when a reply is read

        return legacy.parse(text, kind, labels, options, gt)
