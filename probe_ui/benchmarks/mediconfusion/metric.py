"""MediConfusion (AIF4S/MediConfusion, ``utils/answering.py``): set accuracy, individual accuracy, confusion and
invalid rate over confusing pairs, in total and per body-region category.

Per pair (c1, c2 = the chosen answers, ``'-'`` when invalid; an answer is invalid when ``parsed`` is empty or
``invalid`` is set; answers are compared by the chosen option's text, which equals comparing letters when both
images show the options in the same order, as MediConfusion does, and stays right under option shuffles):

- set accuracy = pairs with both images right / pairs
- individual accuracy = right images / (2 × pairs)
- confusion = pairs with c1 == c2 != '-' / pairs where both answers are valid
- invalid = invalid images / (2 × pairs)
- precision (printed by the original as "Precision") = pairs with both right / valid pairs that are not confused

Per category, exactly as ``create_score_table`` / ``print_score``: a pair adds its set-score, confusion and
"valid" counts to every category of BOTH images (``category_1 + category_2``, so a category both images carry
counts twice); an image adds its individual and invalid counts to its own categories. Set, individual and invalid
divide by the category's image-incidence count (``statistics.json`` in the original: the number of images
carrying the category; here computed from the scored pairs, or given as ``category_counts``); confusion divides
by the category's "valids" count (incidences in pairs with both answers valid), precision by the incidences in
valid, non-confused pairs. Random guessing (two options): set 25 %, individual 50 %, confusion 50 %; computed
from ``n_labels`` as mean 1/(n1·n2), mean 1/n and mean 1/n.

Pairs: rows of condition ``original`` sharing ``item_group`` (the preset's pair id) within one replica (model[,
prompt][, sample]), exactly two rows per pair asking the same question with the same option set (a confusing pair;
other groups, e.g. a MedVH hallucination/baseline pair in the same run, are dropped and counted in
``pairs_dropped``), image 1 first by ``attributes.pair_member`` then table order. When no such pairs exist, the
``mediconfusion-pair`` suite's pairs are used instead: each item's original and its
``mediconfusion-pair/partner-image`` variant (same ``group_id``); their categories are the item's own (the swap
keeps them), so per-category figures are only indicative there. ``per_condition`` repeats the totals for every other
condition whose variants also form ``item_group`` pairs (e.g. the prompt-variants suite, MediConfusion App. C).
"""

from __future__ import annotations

from typing import Any, Mapping, cast

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import (
    ORIGINAL,
    answer_keys,
    cmv,
    combined_codes,
    cond_values,
    correct_values,
    flag,
    has_attribute,
    item_codes,
    key_codes,
    mv,
    prepare,
    question_codes,
    random_share,
    rep_keys,
    sources_text,
    unit_codes,
    unit_kind,
    variant_attr,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric
from probe_ui.metrics.units import ci_words

PARTNER = "mediconfusion-pair/partner-image"
_METRICS = ("set_accuracy", "individual_accuracy", "confusion", "invalid")


def _pairs(d: pd.DataFrame, at: np.ndarray, pair_col: str, cond_values: np.ndarray,
           member: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """The complete pairs among the rows ``at`` (positions in ``d``; ``cond_values`` and ``member`` are theirs):
    the condition of each of their rows and the positions in ``d`` of those rows, sorted by pair (image 1, image 2
    alternating), and the number of groups dropped for not having exactly two rows. Numpy on the rows' own values:
    a paired bootstrap calls it on every replicate."""
    cond_values = np.asarray(cond_values, dtype=object)
    pair = combined_codes([d[k].to_numpy()[at] for k in rep_keys(d)] + [cond_values, d[pair_col].to_numpy()[at]])
    row = np.arange(len(at))
    if member is None:
        m = variant_attr(d, "pair_member").iloc[at]
        member = pd.to_numeric(m, errors="coerce").to_numpy(dtype=float)
        if np.isnan(member).all() and m.notna().any():
            codes = pd.factorize(m.map(lambda x: None if x is None else str(x)), sort=True)[0].astype(float)
            codes[codes < 0] = np.nan
            member = codes
    member = np.where(np.isnan(member), np.inf, member)
    same = question_codes(d)[at]  # equal codes = the same question, in d as among the rows
    k = int(pair.max()) + 1 if len(pair) else 0
    size = np.bincount(pair, minlength=k)
    qc, qu = pd.factorize(same)
    n_q = np.bincount(np.unique(pair * (len(qu) + 1) + qc) // (len(qu) + 1), minlength=k)  # distinct questions
    ok = (size[pair] == 2) & (n_q[pair] == 1)
    dropped = int(np.unique(pair[~ok]).size)
    sel = np.flatnonzero(ok)
    sel = sel[np.lexsort((row[sel], member[sel], pair[sel]))]  # by pair, then image 1 first, then table order
    return cond_values[sel], np.asarray(at)[sel], dropped


def _facts(d: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per row: right, invalid, the chosen option's text (None = MediConfusion's '-'), chance of a guess."""
    c = np.nan_to_num(correct_values(d), nan=0.0)
    ans = answer_keys(d)
    inv = pd.isna(ans) | flag(d, "invalid")
    chosen = np.where(inv, np.array(None, dtype=object), ans)  # None: invalid (MediConfusion's '-')
    return {"ok": c >= 1.0, "inv": inv, "ans": chosen, "p": random_share(d), "unit": unit_codes(d),
            "item": item_codes(d), "kind": np.array(unit_kind(d), dtype=object)}


def _frame(d: pd.DataFrame) -> pd.DataFrame:
    """:func:`_facts` as a table."""
    return pd.DataFrame({k: v for k, v in _facts(d).items() if k != "kind"})


def _pair_level(facts: dict[str, np.ndarray], rows: np.ndarray, conds: np.ndarray) -> dict[str, np.ndarray]:
    """One entry per pair from the per-row ``facts`` of the pairs' ``rows`` and their conditions (image 1, image 2
    alternating): numpy arrays by name (``pd.DataFrame(...)`` makes it a table)."""
    ok, inv, ans, p, unit, item = (facts[k][rows] for k in ("ok", "inv", "ans", "p", "unit", "item"))
    both_valid = ~inv[0::2] & ~inv[1::2]
    same = (ans[0::2] == ans[1::2]) & both_valid
    return {
        "cond": conds[0::2],
        "set": ok[0::2] & ok[1::2],
        "ind": ok[0::2].astype(int) + ok[1::2].astype(int),
        "inv": inv[0::2].astype(int) + inv[1::2].astype(int),
        "valid": both_valid,
        "confused": same,
        "p1": p[0::2].astype(float), "p2": p[1::2].astype(float),
        "unit": unit[0::2],
        # per image, image 1 and 2 of each pair in turn (n_pairs × 2): right, invalid, item
        "images_ok": ok.reshape(-1, 2), "images_inv": inv.reshape(-1, 2), "images_item": item.reshape(-1, 2),
    }


def _totals(pl: dict[str, np.ndarray], kind: str = "pair") -> dict[str, Any]:
    """The five figures over pairs; their intervals over the units of evidence (a pair's variants and samples,
    or a patient's pairs, count once)."""
    n, u = len(pl["set"]), pl["unit"]
    valid = pl["valid"].astype(bool)
    p1, p2 = pl["p1"], pl["p2"]

    def rnd(x: np.ndarray) -> float | None:
        x = x[~np.isnan(x)]
        return round(float(100 * x.mean()), 4) if len(x) else None

    return {
        "set_accuracy": cmv(pl["set"], u, kind=kind, random=rnd(p1 * p2)),
        "individual_accuracy": cmv(pl["images_ok"].reshape(-1), np.repeat(u, 2),
                                   items=pl["images_item"].reshape(-1), kind=kind,
                                   random=rnd(np.concatenate([p1, p2]))),
        "confusion": cmv(pl["confused"][valid], u[valid], kind=kind, random=rnd(p1)),
        "invalid": cmv(pl["images_inv"].reshape(-1), np.repeat(u, 2), items=pl["images_item"].reshape(-1),
                       kind=kind),
        "precision": cmv(pl["set"][valid & ~pl["confused"]], u[valid & ~pl["confused"]], kind=kind),
        "pairs": n,
    }


def _pct(x: float) -> float | None:
    return None if x is None or np.isnan(x) else round(float(100 * x), 4)


def _per_category(rows: pd.DataFrame, pairs: Mapping[str, Any],
                  category_counts: Mapping[str, float] | None) -> dict[str, dict[str, Any]]:
    if "category" not in rows.columns:
        return {}
    pl = pd.DataFrame({k: v for k, v in pairs.items() if k != "kind" and not k.startswith("images_")})
    f = _frame(rows)
    n_pairs = len(pl)
    img = pd.DataFrame({
        "pair": np.repeat(np.arange(n_pairs), 2),
        "cat": rows["category"].to_numpy(),
        "ok": f["ok"].to_numpy().astype(int),
        "inv": f["inv"].to_numpy().astype(int),
        "p": f["p"].to_numpy(dtype=float),
        "pp": np.repeat(pl["p1"].to_numpy(dtype=float) * pl["p2"].to_numpy(dtype=float), 2),
    })
    img["cat"] = [list(c) if isinstance(c, (list, tuple, np.ndarray)) else ([c] if isinstance(c, str) and c else [])
                  for c in img["cat"]]
    ex = img.explode("cat").dropna(subset=["cat"])
    if not len(ex):
        return {}
    pair_cols = pl[["set", "valid", "confused"]].reset_index(drop=True).astype(int)
    ex = ex.join(pair_cols, on="pair")
    ex["valid_nc"] = ex["valid"] * (1 - ex["confused"])
    ex["set_nc"] = ex["set"] * (1 - ex["confused"])
    ex["set_x"] = ex["set"] * 1
    sums = ex.groupby("cat", sort=True).agg(incidence=("ok", "size"), set=("set_x", "sum"), ind=("ok", "sum"),
                                              inv=("inv", "sum"), confused=("confused", "sum"),
                                              valids=("valid", "sum"), valid_nc=("valid_nc", "sum"),
                                              set_nc=("set_nc", "sum"),
                                              p=("p", "mean"), pp=("pp", "mean"))
    ex["unit"] = pl["unit"].to_numpy()[ex["pair"].to_numpy(dtype=np.int64)]
    kind = str(pairs.get("kind", "pair"))
    groups: dict[Any, pd.DataFrame] = dict(tuple(ex.groupby("cat", sort=True)))
    out: dict[str, dict[str, Any]] = {}
    for label, r in sums.iterrows():
        cat = cast(str, label)  # the categories are text
        g = groups[cat]
        u = g["unit"].to_numpy()

        def over(hits: str, where: np.ndarray | None = None, *, random: float | None = None) -> dict:
            at = np.ones(len(g), bool) if where is None else where
            return cmv(g[hits].to_numpy()[at], u[at], kind=kind, random=random)

        if category_counts and cat in category_counts:  # the dataset's own denominators: no interval over units
            den = float(category_counts[cat])
            counted = {"set_accuracy": mv(int(r.set), den, random=_pct(r.pp)),
                       "individual_accuracy": mv(int(r.ind), den, random=_pct(r.p)),
                       "invalid": mv(int(r.inv), den)}
        else:
            counted = {"set_accuracy": over("set_x", random=_pct(r.pp)),
                       "individual_accuracy": over("ok", random=_pct(r.p)),
                       "invalid": over("inv")}
        out[str(cat)] = {
            "set_accuracy": counted["set_accuracy"],
            "individual_accuracy": counted["individual_accuracy"],
            "confusion": over("confused", g["valid"].to_numpy() == 1, random=_pct(r.p)),
            "invalid": counted["invalid"],
            "precision": over("set_nc", g["valid_nc"].to_numpy() == 1),
            "images": int(r.incidence),
        }
    return out


def score(df: pd.DataFrame, category_counts: Mapping[str, float] | None = None, *, detail: bool = True
          ) -> dict[str, Any]:
    """MediConfusion scores of one model's answers (see the module doc for every definition).

    Returns ``{"set_accuracy", "individual_accuracy", "confusion", "invalid", "precision" (MetricValues), "pairs",
    "pairs_dropped", "pairing" ("item_group" | "partner-image" | None), "per_category": {cat: {"set_accuracy",
    "individual_accuracy", "confusion", "invalid", "precision", "images"}}, "per_condition": {cond: totals}}``.
    ``category_counts`` overrides the per-category denominators (e.g. the dataset's ``statistics.json`` when only
    part of it was run). ``detail=False`` leaves ``per_category`` and ``per_condition`` empty (the headline figures
    alone, as a bootstrap replicate needs them).
    """
    d = prepare(df)
    empty: dict[str, Any] = {k: mv(0, 0) for k in (*_METRICS, "precision")}
    empty.update(pairs=0, pairs_dropped=0, pairing=None, per_category={}, per_condition={})
    if not len(d):
        return empty
    cond = cond_values(d)
    grouped = d["item_group"].notna().to_numpy() if "item_group" in d.columns else np.zeros(len(d), bool)
    first = grouped & (cond == ORIGINAL)
    pairing = "item_group"
    conds, rows, dropped = _pairs(d, np.flatnonzero(first), "item_group", cond[first])
    if not len(conds):
        in_suite = (cond == ORIGINAL) | (cond == PARTNER)
        at, scond = np.flatnonzero(in_suite), cond[in_suite]
        if (scond == PARTNER).any():
            is_partner = pd.Series(scond == PARTNER)
            has = is_partner.groupby(item_codes(d)[at]).transform("any").to_numpy()
            at, scond = at[has], scond[has]
            conds, rows, dropped = _pairs(d, at, "group_id", np.full(len(at), ORIGINAL, dtype=object),
                                          member=np.where(scond == PARTNER, 2.0, 1.0))
            pairing = "partner-image"
    if not len(conds):
        return {**empty, "pairs_dropped": dropped}
    facts = _facts(d)
    pl = _pair_level(facts, rows, conds)
    kind = str(facts["kind"])
    out = _totals(pl, kind)
    out.update(pairs_dropped=dropped, pairing=pairing,
               per_category=_per_category(d.iloc[rows], {**pl, "kind": kind}, category_counts) if detail else {},
               per_condition={})
    if not detail:
        return out
    # other conditions whose variants also pair up by item_group
    other = grouped & (cond != ORIGINAL)
    if pairing == "item_group" and other.any():
        ow, orows, _ = _pairs(d, np.flatnonzero(other), "item_group", cond[other])
        if len(ow):
            opl = _pair_level(facts, orows, ow)
            for c in sorted(set(opl["cond"])):
                at = opl["cond"] == c
                out["per_condition"][str(c)] = _totals({k: v[at] for k, v in opl.items()}, kind)
    return out


def _detect(d: pd.DataFrame) -> str | None:
    """The ``mediconfusion-pair`` suite ran, or original choice rows form ``item_group`` pairs of exactly two rows
    asking the same question with the same option set, and either the source or an attribute says MediConfusion
    (``source`` contains "mediconfusion", ``attributes.pair_member`` is set) or the two answers differ."""
    cond = cond_values(d)
    if (cond == PARTNER).any():
        return "the mediconfusion-pair suite ran"
    if "item_group" not in d.columns or "kind" not in d.columns:
        return None
    first = (cond == ORIGINAL) & (d["kind"] == "choice").to_numpy() & d["item_group"].notna().to_numpy()
    base = d[first]
    if not len(base):
        return None
    stats = pd.DataFrame({
        "k": key_codes(base, ["_rep", "item_group"]),
        "same": question_codes(base),
        "a": base["answer_label"].to_numpy(dtype=object) if "answer_label" in base.columns else None,
    }).groupby("k").agg(n=("same", "size"), q=("same", "nunique"), a=("a", "nunique"))
    pairs = stats[(stats["n"] == 2) & (stats["q"] == 1)]  # two images, one question, one option set
    if not len(pairs):
        return None
    if "mediconfusion" in sources_text(d):
        return "item_group pairs from a MediConfusion source"
    if has_attribute(d, "pair_member"):
        return "item_group pairs with attributes.pair_member"
    if (pairs["a"] == 2).any():
        return "item_group pairs asking one question (same options) with two different answers"
    return None


@metric("mediconfusion", "paper", order=10, detect=_detect,
        attributes=("pair_member",), figures={
            "set accuracy": "confusing pairs with both images answered right",
            "individual accuracy": "images answered right, over both images of every pair",
            "confusion": "pairs, both answers readable, given the same answer for two images that differ",
            "precision": "pairs with both images right among the readable pairs that were not confused "
                         "(in score --json, not a headline)"},
        headline=lambda b: {"set accuracy": b["set_accuracy"], "individual accuracy": b["individual_accuracy"],
                            "confusion": b["confusion"]},
        description="MediConfusion: set accuracy, individual accuracy, confusion and invalid rate over confusing "
                    "pairs, per category (the paper's utils/answering.py)",
        explain={
            "set accuracy": Explanation(
                measures="whether the model tells apart two images that look alike to it but have different "
                         "answers: both must be answered right",
                paper="MediConfusion (Sepehri et al.), utils/answering.py; docs/reference.md §4",
                computed="pairs of images asked the same question with both answers right / pairs; per category, "
                         "divided by how often the category occurs among the images",
                chance="25 % with two options per image (1/(n1 x n2) in general); GPT-4o scored 18.75 in the paper",
                ci=ci_words("pairs: n is the number of pairs")),
            "individual accuracy": Explanation(
                measures="plain accuracy over the images of the confusing pairs",
                paper="MediConfusion, utils/answering.py",
                computed="images answered right / (2 x pairs); an unreadable answer counts as wrong",
                chance="50 % with two options (mean 1/n)",
                ci=ci_words("pairs: both images of a pair count as one")),
            "confusion": Explanation(
                measures="how often the model gives the same answer to two images that need different answers: it "
                         "did not see the difference (lower is better)",
                paper="MediConfusion, utils/answering.py",
                computed="pairs whose two readable answers are the same option / pairs with both answers readable",
                chance="50 % with two options (mean 1/n); GPT-4o scored 75.00 in the paper",
                ci=ci_words("pairs with two readable answers")),
            "precision": Explanation(
                measures="when the model does give two different answers to the two images, how often both are right",
                paper="MediConfusion, utils/answering.py (printed as 'Precision')",
                computed="pairs with both images right / pairs with two readable answers that are not the same option",
                chance="with two options, a guesser that answers differently is right on both half of the time: 50 %",
                ci=ci_words("those pairs", "often few pairs, so wide"))})
def _family(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    return score(d, detail=ctx.detail)
