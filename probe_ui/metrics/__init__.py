"""Metrics over a table of scored answers (one row per response), each reporting value, counts and references.

One module per family; ``accuracy`` holds the plain per-model accuracy every paper reports; ``mediconfusion``,
``probmed``, ``medblink``, ``medvh`` and ``illusion`` the papers' own metrics; ``groups`` the metrics over the
variants of one item. :func:`paper_metrics` runs every family whose data is present in one model's table.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pandas as pd

from probe_ui.metrics import groups, illusion, medblink, mediconfusion, medvh, probmed
from probe_ui.metrics.accuracy import accuracy_by_model
from probe_ui.metrics.base import MetricValue, wilson_ci
from probe_ui.metrics.groups import circular_eval, flip_rate, group_consistency, same_option_under_shuffles

__all__ = [
    "MetricValue",
    "accuracy_by_model",
    "circular_eval",
    "detect_families",
    "flip_rate",
    "group_consistency",
    "groups",
    "illusion",
    "medblink",
    "mediconfusion",
    "medvh",
    "paper_metrics",
    "probmed",
    "same_option_under_shuffles",
    "wilson_ci",
]

_SHUFFLE = re.compile(r"(?:^circular/shift\d+$)|shuffle")


def _attribute_keys(d: pd.DataFrame) -> set[str]:
    """Which of the attributes the metrics read are set on some variant of a prepared table."""
    return {k for k in groups.ATTR_KEYS if d[f"_a_{k}"].notna().any()}


def _lower_contains(values: pd.Series, word: str) -> np.ndarray:
    codes, uniq = pd.factorize(values)
    hit = np.array([word in str(u).lower() for u in uniq] + [False], dtype=bool)
    return hit[codes]


def detect_families(df: pd.DataFrame) -> dict[str, str]:
    """Which metric families have data in this table, each with the rule that matched.

    - ``mediconfusion``: the ``mediconfusion-pair`` suite ran (condition ``mediconfusion-pair/partner-image``),
      or original choice rows form ``item_group`` pairs of exactly two rows asking the same question with the
      same option set, and either the source or an attribute says MediConfusion (``source`` contains
      "mediconfusion", ``attributes.pair_member`` is set) or the two correct answers differ (a confusing pair);
    - ``probmed`` (clean) and ``probmed_legacy``: some variant has ``attributes.qa_type``;
    - ``medvh``: a ``medvh/<task>`` condition (not FCJ), or original rows with ``attributes.version``
      hallucination/baseline; ``medvh_fcj``: some row carries a suggested answer (``prompt_args.suggestion`` or
      ``attributes.suggested_answer``);
    - ``medblink``: ``attributes.task`` is set, or the source names MedBLINK/BLINK, or the
      ``medblink-orientation`` / ``dot-colours`` suite ran; only those rows (and the originals of items asked
      under those suites) are scored, so other presets in the same run do not become "tasks";
    - ``illusion``: some condition starts with ``illusion/``;
    - ``groups``: more than one condition (group consistency, flip rate), plus ``circular_eval`` when
      ``circular/shift*`` conditions exist and ``same_option_under_shuffles`` when re-ordering conditions exist.
    """
    d = groups.prepare(df)
    found: dict[str, str] = {}
    if not len(d):
        return found
    cond = groups.cond_values(d)
    conds = {str(c) for c in pd.unique(cond)}
    keys = _attribute_keys(d)
    sources = " ".join(str(s) for s in pd.unique(d["source"])).lower() if "source" in d.columns else ""

    # MediConfusion
    if mediconfusion.PARTNER in conds:
        found["mediconfusion"] = "the mediconfusion-pair suite ran"
    elif "item_group" in d.columns and "kind" in d.columns:
        first = (cond == groups.ORIGINAL) & (d["kind"] == "choice").to_numpy() & d["item_group"].notna().to_numpy()
        base = d[first]
        if len(base):
            stats = pd.DataFrame({
                "k": groups.key_codes(base, ["_rep", "item_group"]),
                "same": mediconfusion.question_codes(base),
                "a": base["answer_label"].to_numpy(dtype=object) if "answer_label" in base.columns else None,
            }).groupby("k").agg(n=("same", "size"), q=("same", "nunique"), a=("a", "nunique"))
            pairs = stats[(stats["n"] == 2) & (stats["q"] == 1)]  # two images, one question, one option set
            if len(pairs):
                if "mediconfusion" in sources:
                    found["mediconfusion"] = "item_group pairs from a MediConfusion source"
                elif "pair_member" in keys:
                    found["mediconfusion"] = "item_group pairs with attributes.pair_member"
                elif (pairs["a"] == 2).any():
                    found["mediconfusion"] = "item_group pairs asking one question (same options) with two " \
                                             "different answers"
    # ProbMed
    if "qa_type" in keys:
        found["probmed"] = "attributes.qa_type"
        found["probmed_legacy"] = "attributes.qa_type"
    # MedVH
    if any(c.startswith(medvh.PREFIX) and not c[len(medvh.PREFIX):].startswith("fcj") for c in conds):
        found["medvh"] = "medvh/<task> conditions"
    elif "version" in keys:
        ver = groups.variant_attr(d, "version")
        if (ver.isin(medvh.VERSIONS).to_numpy() & (cond == groups.ORIGINAL)).any():
            found["medvh"] = "attributes.version hallucination/baseline"
    if groups.suggestion_letter(d).notna().any():
        found["medvh_fcj"] = "suggested answers (prompt_args.suggestion / attributes.suggested_answer)"
    # MedBLINK
    if "task" in keys:
        found["medblink"] = "attributes.task"
    elif "blink" in sources:
        found["medblink"] = "a (Med)BLINK source"
    elif any(c.startswith(("medblink-orientation/", "dot-colours/")) for c in conds):
        found["medblink"] = "the medblink-orientation / dot-colours suite ran"
    # Illusion
    if any(c.startswith(illusion.PREFIX) for c in conds):
        found["illusion"] = "illusion/ conditions"
    # groups
    if len(conds) > 1:
        found["groups"] = "more than one condition"
    return found


def _medblink_rows(d: pd.DataFrame) -> pd.DataFrame:
    """The rows MedBLINK scores inside a mixed table: ``attributes.task`` set, a (Med)BLINK source, or an item
    (group) asked under the medblink-orientation / dot-colours suite."""
    keep = groups.variant_attr(d, "task").notna().to_numpy()
    if "source" in d.columns:
        keep = keep | _lower_contains(d["source"], "blink")
    suite = groups.cond_mask(d, lambda c: c.startswith(("medblink-orientation/", "dot-colours/")))
    if suite.any():
        items = groups.item_codes(d)
        keep = keep | np.isin(items, np.unique(items[suite]))
    return d[keep]


def _safe(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as exc:  # one family failing must not hide the others; the message says which and why
        return {"error": f"{exc.__class__.__name__}: {exc}"}


_GROUP_COLUMNS = ("variant_id", "group_id", "item_group", "kind", "n_labels", "answer", "parsed", "invalid")


def _groups_block(d: pd.DataFrame) -> dict[str, Any]:
    key = groups.answer_keys(d)
    d = d[[c for c in d.columns if c.startswith("_") or c in _GROUP_COLUMNS]].assign(_key=key)
    cond = groups.cond_values(d)
    conds = [str(c) for c in pd.unique(cond)]
    out: dict[str, Any] = {"group_consistency": {"all": group_consistency(d)}, "flip_rate": flip_rate(d)}
    suites = sorted({c.split("/", 1)[0] for c in conds if "/" in c})
    is_orig = cond == groups.ORIGINAL
    codes, uniq = pd.factorize(cond)
    prefix = np.array([str(u).split("/", 1)[0] if "/" in str(u) else None for u in uniq], dtype=object)[codes]
    by_suite = {}
    if len(suites) > 1 or (len(suites) == 1 and not is_orig.all()):
        item, c, p = groups.item_codes(d), groups.correct_values(d), groups.random_share(d)
        for s in suites:
            m = is_orig | (prefix == s)
            by_suite[s] = groups.consistency_of(item[m], c[m], p[m])
    out["group_consistency"]["by_suite"] = by_suite
    if any(c.startswith("circular/shift") for c in conds):
        out["circular_eval"] = circular_eval(d)
    if any(_SHUFFLE.search(c) for c in conds):
        out["same_option_under_shuffles"] = same_option_under_shuffles(d)
    return out


def paper_metrics(df: pd.DataFrame, *, n_boot: int = 2000, seed: int = 0,
                  medvh_weights: tuple[float, float] = (0.5, 0.5)) -> dict[str, Any]:
    """Every paper metric whose data is present in ONE model's answer table (see :func:`detect_families`).

    Returns ``{"detected": {family: rule}, <family>: result, ...}`` with families ``mediconfusion``
    (:func:`mediconfusion.score`), ``probmed`` / ``probmed_legacy`` (:func:`probmed.score`, clean / legacy),
    ``medvh`` (:func:`medvh.score`), ``medvh_fcj`` (:func:`medvh.fcj`), ``medblink`` (:func:`medblink.score`),
    ``illusion`` (:func:`illusion.score`) and ``groups`` (``group_consistency`` over all conditions and per suite,
    ``flip_rate``, ``circular_eval``, ``same_option_under_shuffles``). A family that fails reports
    ``{"error": "..."}`` instead of hiding the others.
    """
    d = groups.prepare(df)
    found = detect_families(d)
    out: dict[str, Any] = {"detected": found}
    runners: dict[str, Callable[[], Any]] = {
        "mediconfusion": lambda: mediconfusion.score(d),
        "probmed": lambda: probmed.score(d),
        "probmed_legacy": lambda: probmed.score(d, legacy=True),
        "medvh": lambda: medvh.score(d, *medvh_weights, n_boot=n_boot, seed=seed),
        "medvh_fcj": lambda: medvh.fcj(d),
        "medblink": lambda: medblink.score(_medblink_rows(d)),
        "illusion": lambda: illusion.score(d, n_boot=n_boot, seed=seed),
        "groups": lambda: _groups_block(d),
    }
    for name, run in runners.items():
        if name in found:
            out[name] = _safe(run)
    return out
