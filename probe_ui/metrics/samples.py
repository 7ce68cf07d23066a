"""Sampling (MediConfusion App. H): n answers per variant, scored by their majority vote."""

from __future__ import annotations

import pandas as pd

KEYS = ["model", "prompt", "variant_id"]
#: the confidence columns a vote averages (:mod:`probe_ui.reading.confidence`: stated, and a provider's own)
CONFIDENCES = ("confidence", "token_confidence")


def majority_vote(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, prompt, variant): the most frequent parsed answer among its finished samples.

    A tie between different answers, or no readable answer at all, is invalid (never broken at random); the vote
    is a refusal when most samples refused; it is sure when every sample was read sure and all of them gave the
    answer that won; a cell all of whose samples failed stays an error; its ``confidence`` (and
    ``token_confidence``, where a provider gave one) is the mean of its samples' that have one, None where none
    has. With one sample per
    cell the table is returned unchanged, and so is a table it already voted (``n_samples`` is its mark): the report
    votes once and hands the voted table to views that vote again.
    """
    if df.empty or int(df["sample"].max()) == 0 or "n_samples" in df.columns:
        return df
    ok = df[df["error"].isna()]
    counts = ok.dropna(subset=["parsed"]).groupby(KEYS + ["parsed"], sort=False).size().rename("votes").reset_index()
    counts = counts.sort_values(KEYS + ["votes"], ascending=[True] * len(KEYS) + [False])
    top = counts.groupby(KEYS, sort=False).head(2)
    first = top.groupby(KEYS, sort=False).nth(0).set_index(KEYS)
    second = top.groupby(KEYS, sort=False).nth(1).set_index(KEYS)["votes"]
    tie = second.reindex(first.index).eq(first["votes"]).fillna(False)
    winner = first["parsed"].where(~tie)

    sure = df["sure"] if "sure" in df.columns else pd.Series(None, index=df.index, dtype=object)
    # the confidence a reply states, and a provider's own (issue 44): a cell's is the mean of its samples' that have one
    confs = {c: pd.to_numeric(df[c], errors="coerce").astype(float) for c in CONFIDENCES if c in df.columns}
    work = df.assign(_failed=df["error"].notna(), _refused=df["refusal"].fillna(False).astype(bool).astype(float),
                     _sure=sure.eq(True).astype(float), **{f"_{c}": v for c, v in confs.items()})
    per_cell = work.groupby(KEYS, sort=False).agg(  # built-in aggregations only: fast on a million rows
        sample=("sample", "max"), n_samples=("sample", "size"), n_failed=("_failed", "sum"),
        first_error=("error", "first"), refusal=("_refused", "mean"),
        latency_s=("latency_s", "sum"), input_tokens=("input_tokens", "sum"), output_tokens=("output_tokens", "sum"),
        cost=("cost", "sum"), sure=("_sure", "min"), **{c: (f"_{c}", "mean") for c in confs},
    )
    per_cell["error"] = per_cell["first_error"].where(per_cell["n_failed"] == per_cell["n_samples"], None)
    per_cell["refusal"] = per_cell["refusal"] > 0.5
    per_cell = per_cell.drop(columns=["n_failed", "first_error"])
    info = df.drop_duplicates(KEYS).set_index(KEYS).drop(
        columns=["sample", "parsed", "method", "invalid", "refusal", "sure", "correct", "error", "latency_s",
                 "input_tokens", "output_tokens", "cost", *CONFIDENCES], errors="ignore")
    out = per_cell.join(info)
    out["parsed"] = winner.reindex(out.index)
    out["method"] = "majority-vote"
    failed = out["error"].notna()
    out["invalid"] = out["parsed"].isna().astype(object).where(~failed, None)
    out["refusal"] = out["refusal"].astype(object).where(~failed, None)
    # sure: every sample read sure, and all of them the answer that won
    unanimous = first["votes"].reindex(out.index).eq(out["n_samples"]).fillna(False) & out["parsed"].notna()
    out["sure"] = ((out["sure"] >= 1.0) & unanimous).astype(object).where(~failed, None)
    for c in confs:  # missing is None, as in the table of single samples
        out[c] = out[c].astype(object).where(out[c].notna(), None)
    known = out["answer_label"].notna() & ~failed
    out["correct"] = (out["parsed"] == out["answer_label"]).astype(object).where(known, None)
    return out.reset_index()
