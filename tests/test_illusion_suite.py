"""The illusion suite asks T3 as the paper does: the options re-ordered without the image (next to the with-image
re-ordering), and the metric compares it with the text-only condition."""

from __future__ import annotations

from pathlib import Path

from probe_ui.benchmarks.illusion import metric as illusion
from probe_ui.presets import load_preset
from probe_ui.presets.suites import expand

ROOT = Path(__file__).resolve().parents[1]


def test_illusion_suite_asks_the_text_only_reordering() -> None:
    exp = expand(load_preset(ROOT / "presets" / "mediconfusion_pairs.yaml"), 0, ["illusion"])
    by_item: dict[str, dict[str, object]] = {}
    for v in exp.variants:
        by_item.setdefault(v.item_id, {})[v.condition] = v
    assert by_item
    for conds in by_item.values():
        orig, text = conds["original"], conds["illusion/no-image+shuffle"]
        assert {"illusion/no-image", "illusion/shuffle"} <= set(conds)
        assert text.images == () and orig.images  # type: ignore[attr-defined]
        assert sorted(text.options) == sorted(orig.options)  # type: ignore[attr-defined]
        assert text.answer == orig.answer and text.group == orig.group  # type: ignore[attr-defined]
        assert [p["op"] for p in text.provenance] == ["remove", "shuffle"]  # type: ignore[attr-defined]
        assert text.question == orig.question  # type: ignore[attr-defined]
    # the metric pairs it with the text-only condition
    assert illusion.baseline_of("illusion/no-image+shuffle") == illusion.NO_IMAGE
    assert illusion.baseline_of("illusion/shuffle") == "original"
