"""ProbMed (eric-ai-lab/ProbMed, ``eval/calculate_score.py``): accuracy with adversarial pairs per question type,
per image type and overall, and the same without the adversarial (hallucination) questions.

Rows: every answer whose variant has ``attributes.qa_type`` (modality_gt, modality_hallu, body_part_gt,
body_part_hallu, abnormality, entity_gt_k, entity_hallu_k, entity_hallu (a normal image's lone question),
grounding_gt_k, grounding_hallu_k), of condition ``original`` (presets, imports) or ``probmed-pairs/*`` (our
suite); other conditions would repeat the same questions under unrelated perturbations and are left out. The
image is ``attributes.image_id`` (ProbMed ``id``; else the row's ``group_id``), its type ``attributes.image_type``
(``<modality>_<organ>``; else "unknown"), the file order ``attributes.order`` (else the table order). A row is
right when ``correct`` is true (invalid and unknown count as wrong). Values are percentages.

``legacy=True`` reproduces ``calculate_score.py`` exactly:

1. records are grouped by ``image_type`` and walked in file order; a new image starts whenever ``id`` changes
   (an image whose records are not contiguous becomes several images);
2. modality / organ: an image counts when it has exactly two such questions, and then is right when both are
   (``acc``) / when the first is (``acc w. hallu``, i.e. without the adversarial pair) -- except the LAST image
   of each image type, whose list is appended without the length check (one lone question counts);
3. abnormality: plain accuracy over its questions;
4. entity (condition) / grounding (position): a ``*_hallu_k`` question pairs with the most recent ``*_gt_*``
   question of the same image only when its index equals that gt's index, otherwise it is skipped (a second
   hallu for the same gt would fail the original's assertion; it is skipped here and reported in ``warnings``);
   a gt with no matching hallu is dropped. An image is right when every pair is right (``acc``) / every gt is
   (without adversarial). A normal image's lone ``entity_hallu`` REPLACES the image's entity list (pairs before
   it are discarded; pairs after it make ``acc`` fail, as the original's list check does); it alone decides
   both figures. Any qa_type that is not modality / body_part / abnormality / entity is treated as grounding;
5. weights per image type: modality and organ = the images counted in (2); abnormality = its questions;
   entity and grounding = ALL images of the type (normal images and images with empty lists included), while
   their accuracies divide by the images with at least one pair (entity: or a lone question);
6. each question type's accuracy is combined over image types weighted by those counts, then ``overall`` over
   the five question types weighted by the summed counts; ``overall.acc_without_adversarial`` uses the same
   weights over the four types that have it (not abnormality). (The original ``main()`` prints the "w.o. adv"
   value in all three slots; the computed values are reported here.) Where the original would divide by zero
   (an image type with no abnormality question, no counted modality image, or no entity/grounding pair), that
   type's figure is None and it is left out of the combination (``warnings`` says so).

``legacy=False`` (our clean definition) differs from the legacy one in:

- images are grouped by (image_id), wherever their rows are in the table;
- gt_k and hallu_k pair by index regardless of order; a question whose partner is missing is dropped;
  modality and organ likewise need both questions, for every image (no last-image exception);
- a lone ``entity_hallu`` is one more unit of the image next to its pairs (it discards nothing); an image counts
  for entity when it has at least one complete pair or a lone question, for grounding at least one complete pair;
- every question-type accuracy is pooled: right images / counted images (abnormality: right / questions), and the
  weights are the counted images (not all images of the type), so ``overall`` = Σ right units / Σ counted units
  over the five types (four types without adversarial); unknown qa_types are ignored;
- 95 % intervals on the pooled figures over the units of evidence (an image's questions count as one image,
  :mod:`probe_ui.metrics.units`).

Random reference (both modes): the same pipeline with every row replaced by its chance of being guessed right
(1 / n_labels, i.e. 0.5 for yes/no): modality and organ 25, abnormality 50, entity and grounding by the numbers of
pairs (ProbMed's README random row: condition 35.67, position 36.48, overall 32.13 on the full set).
"""

from __future__ import annotations

import re
from typing import Any, cast

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import (
    ORIGINAL,
    cmv,
    cond_mask,
    correct_values,
    has_attribute,
    key_codes,
    mv,
    prepare,
    random_share,
    unit_codes,
    unit_kind,
    value_only,
    variant_attr,
)
from probe_ui.metrics.registry import Explanation, MetricContext, metric

QTYPES = ("modality", "body_part", "abnormality", "entity", "grounding")
WITH_ADV = ("modality", "body_part", "entity", "grounding")
SUITE_PREFIX = "probmed-pairs/"


def _classify(q: str) -> tuple[str, bool, bool, str]:
    """Legacy classification: (family, lone, gt, suffix) exactly as calculate_score.py branches."""
    if "modality" in q:
        fam = "modality"
    elif "body_part" in q:
        fam = "body_part"
    elif q == "abnormality":
        fam = "abnormality"
    elif "entity" in q:
        fam = "entity"
    else:
        fam = "grounding"
    return fam, q == "entity_hallu", "gt" in q, q.split("_")[-1]


_ROLE = re.compile(r"^(modality|body_part|entity|grounding)_(gt|hallu)(?:_(\d+))?$")


def _clean_classify(q: str) -> tuple[str | None, str | None, str | None]:
    """Clean classification: (family, role gt/hallu/lone/None, index) for the documented qa_types only."""
    if q == "abnormality":
        return "abnormality", None, None
    if q == "entity_hallu":
        return "entity", "lone", None
    m = _ROLE.match(q)
    if not m:
        return None, None, None
    fam, role, idx = m.groups()
    if fam in ("entity", "grounding") and idx is None:
        return None, None, None
    return fam, role, idx


def _frame(df: pd.DataFrame) -> pd.DataFrame:
    d = prepare(df)
    if not len(d):
        return pd.DataFrame()
    qa = variant_attr(d, "qa_type").to_numpy(dtype=object)
    keep = pd.notna(qa) & cond_mask(d, lambda c: c == ORIGINAL or c.startswith(SUITE_PREFIX))
    if not keep.any():
        return pd.DataFrame()
    img = variant_attr(d, "image_id").to_numpy(dtype=object)[keep]
    if "group_id" in d.columns:
        img = np.where(pd.isna(img), d["group_id"].to_numpy(dtype=object)[keep], img)
    itype = variant_attr(d, "image_type").to_numpy(dtype=object)[keep]
    order = pd.to_numeric(variant_attr(d, "order")[keep], errors="coerce").to_numpy(dtype=float)
    pos = np.arange(int(keep.sum()), dtype=float)
    p = random_share(d)[keep]
    return pd.DataFrame({
        "rep": d["_rep"].to_numpy()[keep],
        "img": pd.factorize(img, use_na_sentinel=False)[0],
        "itype": np.where(pd.isna(itype), "unknown", itype).astype(object),
        "qa": qa[keep],
        "x": np.nan_to_num(correct_values(d)[keep], nan=0.0),
        "p": np.where(np.isnan(p), 0.5, p),
        "order": np.where(np.isnan(order), pos, order),
        "pos": pos,
        "unit": unit_codes(d)[keep],
    })


# ------------------------------------------------------------------------------------------------------------
# legacy
# ------------------------------------------------------------------------------------------------------------

def _pairs_legacy(g: pd.DataFrame, warnings: list[str], what: str) -> pd.DataFrame:
    """Valid (gt, hallu) pairs in walk order: per hallu row, the pair's all/first values for x and p."""
    if not len(g):
        return pd.DataFrame(columns=["run", "seq", "all_x", "first_x", "all_p", "first_p"])
    g = g.copy()
    g["gsuf"] = g["suffix"].where(g["gt"])
    g["gx"] = g["x"].where(g["gt"])
    g["gp"] = g["p"].where(g["gt"])
    g["gseq"] = g["gt"].astype(int).groupby(g["run"]).cumsum()
    g[["gsuf", "gx", "gp"]] = g.groupby("run")[["gsuf", "gx", "gp"]].ffill()
    h = g[~g["gt"]]
    h = h[h["gsuf"].notna() & (h["suffix"] == h["gsuf"])]
    dup = h.duplicated(["run", "gseq"])
    if dup.any():
        warnings.append(f"{what}: {int(dup.sum())} repeated hallu question(s) for one gt skipped "
                        "(the original code would fail its assertion)")
    h = h[~dup]
    return pd.DataFrame({"run": h["run"].to_numpy(), "seq": h["seq"].to_numpy(),
                         "all_x": (h["gx"] * h["x"]).to_numpy(), "first_x": h["gx"].to_numpy(),
                         "all_p": (h["gp"] * h["p"]).to_numpy(), "first_p": h["gp"].to_numpy()})


def _legacy_tables(f: pd.DataFrame, warnings: list[str]) -> pd.DataFrame:
    """Per (replica, image type, question type): acc, acc_wo, num, and their random counterparts."""
    cls = {q: _classify(q) for q in pd.unique(f["qa"])}
    f = f.assign(**{name: f["qa"].map({q: v[i] for q, v in cls.items()})
                    for i, name in enumerate(("fam", "lone", "gt", "suffix"))})
    f["lone"] = f["lone"].astype(bool)
    f["gt"] = f["gt"].astype(bool)
    f = f.sort_values(["rep", "itype", "order", "pos"], kind="stable").reset_index(drop=True)
    f["grp"] = key_codes(f, ["rep", "itype"])
    new = (f["grp"] != f["grp"].shift()) | (f["img"] != f["img"].shift())
    f["run"] = new.cumsum() - 1
    f["seq"] = np.arange(len(f))
    runs = f.groupby("run").agg(grp=("grp", "first"), rep=("rep", "first"), itype=("itype", "first"))
    runs["last"] = runs.index.to_numpy() == runs.reset_index().groupby("grp")["run"].transform("max").to_numpy()
    n_runs = runs.groupby("grp").size()
    grp_info = runs.groupby("grp")[["rep", "itype"]].first()
    rows: list[dict[str, Any]] = []

    def emit(q: str, grp_vals: pd.DataFrame) -> None:
        for grp, r in grp_vals.iterrows():
            rows.append({"grp": grp, "q": q, **{str(k): v for k, v in r.items()}})  # keys: column names

    # modality / organ
    for q in ("modality", "body_part"):
        m = f[f["fam"] == q]
        if not len(m):
            continue
        a = m.groupby("run").agg(n=("x", "size"), all_x=("x", "prod"), first_x=("x", "first"),
                                 all_p=("p", "prod"), first_p=("p", "first"))
        a = a.join(runs[["grp", "last"]])
        a = a[(a["n"] == 2) | (a["last"] & (a["n"] >= 1))]
        s = a.groupby("grp").agg(num=("n", "size"), all_x=("all_x", "sum"), first_x=("first_x", "sum"),
                                 all_p=("all_p", "sum"), first_p=("first_p", "sum"))
        s["den"] = s["num"]
        emit(q, s)
    # abnormality
    ab = f[f["fam"] == "abnormality"]
    if len(ab):
        s = ab.groupby("grp").agg(num=("x", "size"), all_x=("x", "sum"), all_p=("p", "sum"))
        s["den"] = s["num"]
        s["first_x"] = np.nan
        s["first_p"] = np.nan
        emit("abnormality", s)
    # entity / grounding
    for q in ("entity", "grounding"):
        g = f[f["fam"] == q]
        if q == "entity":
            lone = g[g["lone"]]
            g = g[~g["lone"]]
        else:
            lone = g.iloc[0:0]
        if not len(g) and not len(lone):
            continue
        pairs = _pairs_legacy(g, warnings, q)
        last_lone = lone.groupby("run").last()[["seq", "x", "p"]] if len(lone) else \
            pd.DataFrame(columns=["seq", "x", "p"])
        if len(pairs):
            pairs = pairs.join(last_lone[["seq"]].rename(columns={"seq": "lone_seq"}), on="run")
            before = (pairs["seq"] < pairs["lone_seq"].fillna(-1)).to_numpy()
            pairs = pairs[~before]
            per = pairs.groupby("run").agg(k=("all_x", "size"), all_x=("all_x", "prod"),
                                           first_x=("first_x", "prod"), all_p=("all_p", "prod"),
                                           first_p=("first_p", "prod"))
        else:
            per = pd.DataFrame(columns=["k", "all_x", "first_x", "all_p", "first_p"])
        if len(last_lone):
            lo = pd.DataFrame(index=last_lone.index)
            after = per["k"].reindex(lo.index).fillna(0).to_numpy() > 0
            lo["all_x"] = np.where(after, 0.0, last_lone["x"].to_numpy(dtype=float))
            lo["first_x"] = last_lone["x"].to_numpy(dtype=float)
            lo["all_p"] = np.where(after, 0.0, last_lone["p"].to_numpy(dtype=float))
            lo["first_p"] = last_lone["p"].to_numpy(dtype=float)
            per = pd.concat([per.drop(index=lo.index, errors="ignore")[["all_x", "first_x", "all_p", "first_p"]],
                             lo])
        per = per[["all_x", "first_x", "all_p", "first_p"]].astype(float).join(runs[["grp"]])
        s = per.groupby("grp").agg(den=("all_x", "size"), all_x=("all_x", "sum"), first_x=("first_x", "sum"),
                                   all_p=("all_p", "sum"), first_p=("first_p", "sum"))
        s = s.reindex(n_runs.index)
        s["num"] = n_runs
        s["den"] = s["den"].fillna(0)
        emit(q, s)
    t = pd.DataFrame(rows)
    if not len(t):
        return t
    t = t.join(grp_info, on="grp")
    den = t["den"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        for v in ("all_x", "first_x", "all_p", "first_p"):
            t[v.replace("all", "acc").replace("first", "wo")] = np.where(den > 0, 100 * t[v].to_numpy(float) / den,
                                                                          np.nan)
    bad = t[(t["num"] > 0) & (t["den"] == 0)]
    for _, r in bad.iterrows():
        warnings.append(f"image type '{r['itype']}': no scorable {r['q']} image/question (the original would divide "
                        "by zero); left out of the combination")
    return t


def _combine(t: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Weighted combination of per-type accuracies: Σ acc·num / Σ num over rows with a defined accuracy."""
    t = t[t["acc_x"].notna()].copy()
    for v in ("acc_x", "wo_x", "acc_p", "wo_p"):
        t[v + "_w"] = t[v] * t["num"]
    g = t.groupby(by, sort=True)
    out = g[["num"]].sum()
    for v in ("acc_x", "wo_x", "acc_p", "wo_p"):
        out[v] = g[v + "_w"].sum(min_count=1) / out["num"]
    out["n"] = g["num"].sum()
    return out


def _legacy_result(t: pd.DataFrame, warnings: list[str]) -> dict[str, Any]:
    def block(r: pd.Series | None, q: str) -> dict[str, Any]:
        if r is None or not r["num"]:
            res = {"acc": value_only(None, 0, 0)}
            if q in WITH_ADV:
                res["acc_without_adversarial"] = value_only(None, 0, 0)
            return res
        res = {"acc": value_only(r["acc_x"], r["num"], int(r["num"]), random=_r(r["acc_p"]))}
        if q in WITH_ADV:
            res["acc_without_adversarial"] = value_only(r["wo_x"], r["num"], int(r["num"]), random=_r(r["wo_p"]))
        return res

    out: dict[str, Any] = {}
    per_q = _combine(t, ["q"]) if len(t) else pd.DataFrame()
    for q in QTYPES:
        out[q] = block(cast(pd.Series, per_q.loc[q]) if q in per_q.index else None, q)  # one row per q
    out["overall"] = _overall(per_q)
    per_type: dict[str, Any] = {}
    if len(t):
        pt = _combine(t, ["itype", "q"])
        for key, r in pt.iterrows():
            itype, qtype = cast(tuple[Any, str], key)
            per_type.setdefault(str(itype), {})[qtype] = block(r, qtype)
    out["per_image_type"] = per_type
    out["warnings"] = warnings
    return out


def _overall(per_q: pd.DataFrame) -> dict[str, Any]:
    if not len(per_q):
        return {"acc": value_only(None, 0, 0), "acc_without_adversarial": value_only(None, 0, 0)}
    num = per_q["num"].astype(float)
    w = num.sum()
    acc = float((per_q["acc_x"] * num).sum() / w) if w else None
    accp = float((per_q["acc_p"] * num).sum() / w) if w else None
    adv = per_q[per_q.index.isin(WITH_ADV)]
    wa = adv["num"].astype(float).sum()
    wo = float((adv["wo_x"] * adv["num"]).sum() / wa) if wa else None
    wop = float((adv["wo_p"] * adv["num"]).sum() / wa) if wa else None
    return {"acc": value_only(acc, w, int(w), random=_r(accp)),
            "acc_without_adversarial": value_only(wo, wa, int(wa), random=_r(wop))}


def _r(v: Any) -> float | None:
    return None if v is None or pd.isna(v) else round(float(v), 4)


# ------------------------------------------------------------------------------------------------------------
# clean
# ------------------------------------------------------------------------------------------------------------

def _clean_units(f: pd.DataFrame) -> pd.DataFrame:
    """Per (replica, image, question type): counted, all_x, first_x, all_p, first_p (1 unit = 1 image, except
    abnormality where 1 unit = 1 question)."""
    cls = {q: _clean_classify(q) for q in pd.unique(f["qa"])}
    f = f.assign(**{name: f["qa"].map({q: v[i] for q, v in cls.items()}).astype(object)
                    for i, name in enumerate(("fam", "role", "idx"))})
    f = f[f["fam"].notna()]
    f["image"] = key_codes(f, ["rep", "img"])
    itype = f.groupby("image")["itype"].first()
    parts = []
    unit = f.groupby("image")["unit"].first()
    ab = f[f["fam"] == "abnormality"]
    if len(ab):
        parts.append(pd.DataFrame({"image": ab["image"].to_numpy(), "q": "abnormality", "all_x": ab["x"].to_numpy(),
                                   "first_x": np.nan, "all_p": ab["p"].to_numpy(), "first_p": np.nan,
                                   "unit": ab["unit"].to_numpy()}))
    rest = f[f["fam"] != "abnormality"].copy()
    if len(rest):
        lone = rest["role"] == "lone"
        idx = pd.to_numeric(rest["idx"], errors="coerce").fillna(-0.5).to_numpy(dtype=float)
        rest["unit"] = np.where(lone, -1.0 - rest["pos"].to_numpy(dtype=float), idx)
        rest["is_gt"] = (rest["role"] == "gt") | lone
        rest["is_h"] = (rest["role"] == "hallu") | lone
        rest["gx"] = rest["x"].where(rest["is_gt"], 1.0)
        rest["gp"] = rest["p"].where(rest["is_gt"], 1.0)
        u = rest.groupby(["image", "fam", "unit"], sort=False).agg(
            has_gt=("is_gt", "any"), has_h=("is_h", "any"), all_x=("x", "prod"), first_x=("gx", "prod"),
            all_p=("p", "prod"), first_p=("gp", "prod"))
        u = u[u["has_gt"] & u["has_h"]].reset_index()
        im = u.groupby(["image", "fam"], sort=False).agg(all_x=("all_x", "prod"), first_x=("first_x", "prod"),
                                                         all_p=("all_p", "prod"), first_p=("first_p", "prod"))
        im = im.reset_index().rename(columns={"fam": "q"})
        im["unit"] = unit.reindex(im["image"]).to_numpy()
        parts.append(im)
    if not parts:
        return pd.DataFrame()
    units = pd.concat(parts, ignore_index=True)
    units["itype"] = itype.reindex(units["image"]).to_numpy()
    return units


def _clean_result(units: pd.DataFrame, kind: str = "image") -> dict[str, Any]:
    """The pooled figures; each interval over the units of evidence (an image's questions count once)."""
    def block(g: pd.DataFrame | None, q: str) -> dict[str, Any]:
        def acc(hits: str, share: str) -> Any:
            if g is None:
                return mv(0, 0, random=None)
            n = len(g)
            return cmv(g[hits], g["unit"], kind=kind,
                       random=round(float(100 * g[share].mean()), 4) if n else None)

        res = {"acc": acc("all_x", "all_p")}
        if q in WITH_ADV:
            res["acc_without_adversarial"] = acc("first_x", "first_p")
        return res

    out: dict[str, Any] = {}
    by_q = dict(tuple(units.groupby("q"))) if len(units) else {}
    for q in QTYPES:
        out[q] = block(by_q.get(q), q)
    if len(units):
        adv = units[units["q"].isin(WITH_ADV)]
        out["overall"] = {
            "acc": cmv(units["all_x"], units["unit"], kind=kind,
                       random=round(float(100 * units["all_p"].mean()), 4)),
            "acc_without_adversarial": cmv(adv["first_x"], adv["unit"], kind=kind,
                                           random=round(float(100 * adv["first_p"].mean()), 4) if len(adv) else None),
        }
    else:
        out["overall"] = {"acc": mv(0, 0), "acc_without_adversarial": mv(0, 0)}
    per_type: dict[str, Any] = {}
    if len(units):
        for key, g in units.groupby(["itype", "q"], sort=True):
            itype, qtype = cast(tuple[Any, str], key)
            per_type.setdefault(str(itype), {})[qtype] = block(g, qtype)
    out["per_image_type"] = per_type
    out["warnings"] = []
    return out


def score(df: pd.DataFrame, legacy: bool = False) -> dict[str, Any]:
    """ProbMed scores of one model's answers (module doc: rows used, legacy and clean definitions).

    Returns ``{"modality": {"acc", "acc_without_adversarial"}, "body_part": {...}, "abnormality": {"acc"},
    "entity": {...}, "grounding": {...}, "overall": {"acc", "acc_without_adversarial"}, "per_image_type":
    {image_type: {question type: {...}}}, "legacy": bool, "images": int, "questions": int, "warnings": [str]}``,
    each leaf a MetricValue dict in percent. Legacy leaves are weighted combinations, not plain ratios: their
    ``denominator`` is the weight (the original's ``num``) and ``numerator`` = value × weight / 100, without CI.
    """
    df = prepare(df)
    f = _frame(df)
    if not len(f):
        res = _clean_result(pd.DataFrame())
        res.update(legacy=legacy, images=0, questions=0)
        return res
    if legacy:
        warnings: list[str] = []
        res = _legacy_result(_legacy_tables(f, warnings), warnings)
    else:
        res = _clean_result(_clean_units(f), unit_kind(df))
    res.update(legacy=legacy, images=int(pd.unique(key_codes(f, ["rep", "img"])).size), questions=int(len(f)))
    return res


def _headline(b: dict[str, Any]) -> dict[str, Any]:
    o = b.get("overall") or {}
    return {"accuracy with adversarial pairs": o.get("acc"),
            "accuracy without adversarial": o.get("acc_without_adversarial")}


@metric("probmed", "paper", order=20, attributes=("qa_type", "image_id", "image_type", "order"),
        headline=_headline, figures={
            "accuracy with adversarial pairs": "ProbMed's accuracy: an image's question counts right only when its "
                                               "adversarial (hallucination) pair is answered right too",
            "accuracy without adversarial": "ProbMed's accuracy over the ground-truth questions alone"},
        detect=lambda d: "attributes.qa_type" if has_attribute(d, "qa_type") else None,
        description="ProbMed: accuracy with adversarial pairs per question type, image type and overall, and "
                    "without the adversarial questions",
        explain={
            "accuracy with adversarial pairs": Explanation(
                measures="whether the model's yes to a true finding survives the matching question about a finding "
                         "that is not there: agreeing with everything scores low",
                paper="ProbMed (Yan et al.), eval/calculate_score.py; docs/reference.md §4",
                computed="per question type, an image counts right when its ground-truth question and its "
                         "hallucinated (adversarial) question are both right; the types are combined weighted by "
                         "their counts (the paper definition walks records in file order, the clean one counts each "
                         "image once)",
                chance="ProbMed's random row: 32.13 overall (modality 25, organ 25, abnormality 50, condition 35.67, "
                       "position 36.48)",
                ci="no interval: a weighted combination of question types, quoted as the paper quotes it"),
            "accuracy without adversarial": Explanation(
                measures="accuracy on the ground-truth questions alone: what the model seems to know before it is "
                         "probed",
                paper="ProbMed, eval/calculate_score.py ('acc w. hallu' in its code)",
                computed="the same weighting over the ground-truth questions only; the drop to 'accuracy with "
                         "adversarial pairs' is ProbMed's headline (GPT-4o: 76.31 to 55.60)",
                chance="50 % per yes/no question",
                ci="no interval, as above")})
def _paper(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    """calculate_score.py exactly (module doc, legacy=True)."""
    return score(d, legacy=True)


@metric("probmed", "clean")
def _clean(d: pd.DataFrame, ctx: MetricContext) -> dict[str, Any]:
    """Ours: images grouped by id wherever their rows are, pairs matched by index (module doc, legacy=False)."""
    return score(d)
