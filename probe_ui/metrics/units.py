"""The unit of evidence: which answers are one observation's worth, so that every interval and paired test counts
units, not cells (issue 43).

41 variants of one image answered alike are one image's worth of evidence, not 41. Each answer (a row of the
scored-answer table) belongs to one unit, and every variant, sample, rotation, severity level and pushback turn
of a unit counts in one cluster (:mod:`probe_ui.stats`: design-effect intervals, Durkalski's paired test).

A row's unit, first that applies:

1. what its preset item names: ``patient:`` or ``study:`` (kept in the item's attributes), so that a site's
   images of one patient count once;
2. what its benchmark declares (:attr:`probe_ui.benchmark.Benchmark.unit`): ProbMed the image its
   questions are about (``attributes.image_id``), MediConfusion the confusing pair (the item's ``group``);
3. a preset item's ``group`` (items that belong together);
4. the item itself.

The finer grouping, the item (every variant and sample of it), is kept beside the unit: an interval is never
narrower than the item-level clustering gives (:func:`probe_ui.stats.clustered_wilson`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
import pandas as pd

#: a preset item's own unit fields (``patient: P17``), in the order they win
ITEM_UNITS = ("patient", "study")
#: the word for a unit, as a page counts it ("n = 16 items")
WORDS = {"patient": ("patient", "patients"), "study": ("study", "studies"), "image": ("image", "images"),
         "pair": ("pair", "pairs"), "group": ("group", "groups"), "item": ("item", "items")}


#: what a paper metric's interval is, in words (``metrics --explain``; the method in full: 'accuracy')
CI_WORDS = ("the 95 % interval over the units of evidence ({over}), so that an image's variants, samples and "
            "severity levels count once: Wilson's where each unit holds one, else Wilson's over their effective "
            "number (the design effect; 'accuracy' explains it)")


def ci_words(over: str, then: str = "") -> str:
    """:data:`CI_WORDS` for a figure counted over ``over`` ("items", "pairs with two readable answers"), and an
    afterword."""
    return CI_WORDS.format(over=over) + (f"; {then}" if then else "")


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
    from probe_ui.benchmark import BENCHMARKS

    out: list[tuple[str, str, tuple[str, ...]]] = []
    for b in sorted(BENCHMARKS.entries(), key=lambda b: (b.order, b.name)):
        unit = getattr(b, "unit", None)
        if unit:
            out.append((unit[0], unit[1], tuple(b.source_names) + tuple(b.names)))
    return out


def attribute_keys() -> tuple[str, ...]:
    """The variant attributes a unit is read from (a preset's ``patient`` and ``study``, the benchmarks' declared
    ones): what :func:`probe_ui.metrics.frame.prepare` extracts once per variant."""
    return tuple(dict.fromkeys([*ITEM_UNITS, *(where.split(".", 1)[1] for _, where, _ in declared()
                                               if where.startswith("attributes."))]))


def _attr(df: pd.DataFrame, key: str) -> np.ndarray:
    from probe_ui.metrics.frame import variant_attr

    return variant_attr(df, key).to_numpy(dtype=object) if len(df) else np.empty(0, dtype=object)


def _present(values: np.ndarray) -> np.ndarray:
    missing = pd.isna(values)  # None, NaN and pandas' NA (text columns read from SQL)
    out = ~missing
    out[out] = np.asarray(values, dtype=object)[out] != ""
    return out


def _joined(*parts: np.ndarray) -> np.ndarray:
    """The parts joined element-wise by a separator no id holds."""
    return np.array(["\x1f".join(map(str, t)) for t in zip(*parts)], dtype=object)


def _parts(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row: its run, its unit's kind, its unit's value (the patient, image, pair or item id) and its item id."""
    n = len(df)
    run = df["run"].astype(str).to_numpy(dtype=object) if "run" in df.columns else np.full(n, "", dtype=object)
    item = df["item_id"].astype(str).to_numpy(dtype=object) if "item_id" in df.columns else np.arange(n).astype(str)
    values, kinds = item.copy(), np.full(n, "item", dtype=object)
    todo = np.ones(n, dtype=bool)
    rules: list[tuple[str, str, tuple[str, ...]]] = [(k, f"attributes.{k}", ()) for k in ITEM_UNITS]
    rules += declared() + [("group", "item_group", ())]
    source = df["source"].astype(str).str.lower().to_numpy(dtype=object) if "source" in df.columns \
        else np.full(n, "", dtype=object)
    for kind, where, claims in rules:
        if not todo.any():
            break
        if where == "item_group":
            found = df["item_group"].to_numpy(dtype=object) if "item_group" in df.columns else np.full(n, None)
        else:
            found = _attr(df, where.split(".", 1)[1])
        hit = todo & _present(found)
        if claims and where == "item_group" and hit.any():  # a group is this benchmark's unit only in its own files
            codes, uniq = pd.factorize(source)
            own = np.array([any(c in str(u) for c in claims) for u in uniq], dtype=bool)
            hit &= own[codes]
        values[hit] = found[hit]
        kinds[hit] = kind
        todo &= ~hit
    return run, kinds, values, item


def units_of(df: pd.DataFrame) -> Units:
    """Every row's unit (module doc). Rows of several runs or replicas keep apart: the key holds the run."""
    run, kinds, values, item = _parts(df)
    if not len(run):
        empty = np.empty(0, dtype=object)
        return Units(empty, empty, empty)
    return Units(_joined(run, kinds, values), kinds, _joined(run, item))


def codes_of(df: pd.DataFrame, *, items: bool = True) -> Units:
    """:func:`units_of` with int codes for keys and items instead of text (equal codes: one unit; the numbers
    mean nothing across tables): what a table's own intervals need, without building a million strings.
    ``items=False`` leaves the items' codes out (empty)."""
    from probe_ui.metrics.frame import combined_codes

    run, kinds, values, item = _parts(df)
    empty = np.zeros(0, dtype=np.int64)
    if not len(run):
        return Units(empty, kinds, empty)
    runs = [run] if "run" in df.columns else []  # one table of one run: nothing to tell apart
    return Units(combined_codes([*runs, kinds, values]), kinds, combined_codes([*runs, item]) if items else empty)


def _items_frame(things: list[tuple[Any, Any, Any, Any]]) -> pd.DataFrame:
    """A table :func:`units_of` reads from (item id, group, attributes, source file) per item or variant, each
    its own variant."""
    return pd.DataFrame([{"item_id": i, "item_group": g, "attributes": dict(a or {}), "source": s,
                          "variant_id": f"{n}"} for n, (i, g, a, s) in enumerate(things)],
                        columns=["item_id", "item_group", "attributes", "source", "variant_id"])


def planned(items: Iterable[Any]) -> dict[str, Any]:
    """The unit of evidence a run's items count in, as the run records it in its settings (``unit``): the kind
    most items fall into, how many units and items (``{"unit": "pair", "units": 8, "items": 16}``), and the other
    kinds where some items fall into another. Read from the items alone (their ids, groups, attributes and source
    file), as :func:`units_of` reads the stored answers, so that the record and the scoring agree."""
    rows = [(it.id, it.group, it.attributes, it.source) for it in items]
    if not rows:
        return {"unit": "item", "units": 0, "items": 0}
    u = units_of(_items_frame(rows))
    kinds = pd.Series(u.kinds.astype(str)).value_counts()
    out: dict[str, Any] = {"unit": u.kind(), "units": int(len(set(u.keys))), "items": len(rows)}
    if len(kinds) > 1:
        out["kinds"] = {str(k): int(v) for k, v in kinds.items()}
    return out


def labels_of(variants: Iterable[Any]) -> list[str]:
    """Each variant's unit of evidence in words ("pair mc-03", "patient P17", "item q12"): what a harness's
    samples carry so that its own statistics cluster them as probe-ui does (Inspect's ``stderr(cluster=...)``)."""
    rows = [(v.item_id, v.item_group, v.attributes, v.source) for v in variants]
    if not rows:
        return []
    _, kinds, values, _ = _parts(_items_frame(rows))
    return [f"{k} {v}" for k, v in zip(kinds, values)]


def counted(units: int, cells: int, kind: str) -> str:
    """"n = 16 items (656 answers)", or "n = 16 items" where each holds one answer."""
    one, many = WORDS.get(kind, (kind, kind + "s"))
    head = f"n = {units} {one if units == 1 else many}"
    return head if units == cells else f"{head} ({cells} answer{'s' if cells != 1 else ''})"
