"""The unit of evidence: which answers are one observation's worth, so that every interval and paired test counts
units, not cells (issue 43).

41 variants of one image answered alike are one image's worth of evidence, not 41. Each answer (a row of the
scored-answer table) belongs to one unit, and every variant, sample, rotation, severity level and pushback turn
of a unit counts in one cluster (:mod:`probe_ui.stats`: design-effect intervals, Durkalski's paired test).

A row's unit, first that applies:

1. what its preset item names: ``patient:`` or ``study:`` (kept in the item's attributes), so that a site's
   images of one patient count once;
2. what its benchmark declares (:attr:`probe_ui.benchmarks.base.Benchmark.unit`): ProbMed the image its
   questions are about (``attributes.image_id``), MediConfusion the confusing pair (the item's ``group``);
3. a preset item's ``group`` (items that belong together);
4. the item itself.

The finer grouping, the item (every variant and sample of it), is kept beside the unit: an interval is never
narrower than the item-level clustering gives (:func:`probe_ui.stats.clustered_wilson`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

#: a preset item's own unit fields (``patient: P17``), in the order they win
ITEM_UNITS = ("patient", "study")
#: the word for a unit, as a page counts it ("n = 16 items")
WORDS = {"patient": ("patient", "patients"), "study": ("study", "studies"), "image": ("image", "images"),
         "pair": ("pair", "pairs"), "group": ("group", "groups"), "item": ("item", "items")}


@dataclass(frozen=True)
class Units:
    """Per row of a table: its unit's key and kind, and its item's key (the finer grouping)."""

    keys: np.ndarray
    kinds: np.ndarray
    items: np.ndarray

    def kind(self) -> str:
        """The unit most rows count in ("item" for none)."""
        if not len(self.kinds):
            return "item"
        values, counts = np.unique(self.kinds.astype(str), return_counts=True)
        return str(values[int(np.argmax(counts))])


def declared() -> list[tuple[str, str, tuple[str, ...]]]:
    """(unit kind, where it is read, the source names that claim a row) that the benchmarks declare, in their
    detection order; ``where`` is ``attributes.<key>`` (a benchmark's own field: present means this benchmark's) or
    ``item_group`` (a field any preset may set: the row must come from the benchmark's files, by name)."""
    from probe_ui.benchmarks.base import BENCHMARKS

    out: list[tuple[str, str, tuple[str, ...]]] = []
    for b in sorted(BENCHMARKS.entries(), key=lambda b: (b.order, b.name)):
        unit = getattr(b, "unit", None)
        if unit:
            out.append((unit[0], unit[1], tuple(b.source_names) + tuple(b.names)))
    return out


def _attr(df: pd.DataFrame, key: str) -> np.ndarray:
    from probe_ui.metrics.frame import variant_attr

    return variant_attr(df, key).to_numpy(dtype=object) if len(df) else np.empty(0, dtype=object)


def _present(values: np.ndarray) -> np.ndarray:
    return np.array([v is not None and not (isinstance(v, float) and v != v) and str(v) != "" for v in values],
                    dtype=bool)


def units_of(df: pd.DataFrame) -> Units:
    """Every row's unit (module doc). Rows of several runs or replicas keep apart: the key holds the run."""
    n = len(df)
    run = df["run"].astype(str).to_numpy(dtype=object) if "run" in df.columns else np.full(n, "", dtype=object)
    item = df["item_id"].astype(str).to_numpy(dtype=object) if "item_id" in df.columns else np.arange(n).astype(str)
    items = np.array([f"{r}\x1f{i}" for r, i in zip(run, item)], dtype=object)
    keys, kinds = items.copy(), np.full(n, "item", dtype=object)
    todo = np.ones(n, dtype=bool)
    rules: list[tuple[str, str, tuple[str, ...]]] = [(k, f"attributes.{k}", ()) for k in ITEM_UNITS]
    rules += declared() + [("group", "item_group", ())]
    source = df["source"].astype(str).str.lower().to_numpy(dtype=object) if "source" in df.columns \
        else np.full(n, "", dtype=object)
    for kind, where, claims in rules:
        if not todo.any():
            break
        if where == "item_group":
            values = df["item_group"].to_numpy(dtype=object) if "item_group" in df.columns else np.full(n, None)
        else:
            values = _attr(df, where.split(".", 1)[1])
        hit = todo & _present(values)
        if claims and where == "item_group":  # a group is this benchmark's unit only in its own files
            hit &= np.array([any(c in str(s) for c in claims) for s in source], dtype=bool)
        keys[hit] = [f"{r}\x1f{kind}\x1f{v}" for r, v in zip(run[hit], values[hit])]
        kinds[hit] = kind
        todo &= ~hit
    return Units(keys, kinds, items)


def counted(units: int, cells: int, kind: str) -> str:
    """"n = 16 items (656 answers)", or "n = 16 items" where each holds one answer."""
    one, many = WORDS.get(kind, (kind, kind + "s"))
    head = f"n = {units} {one if units == 1 else many}"
    return head if units == cells else f"{head} ({cells} answer{'s' if cells != 1 else ''})"
