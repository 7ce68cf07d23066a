"""Clinician agreement: do the raters agree with each other, and with the parser's automatic correctness?

Reads the scored-answer table's ``rater_ratings`` (:func:`probe_ui.scoring.scored_answers`: ``{rater: rating}`` of
each rater's latest rating of an answer; ratings are correct / incorrect / unsure, three nominal categories).
One rated answer (one reply: several samples of a cell are rated one by one) is one subject.

- **Cohen's kappa** when exactly two raters rated: over the answers both rated, ``kappa = (p_o - p_e) /
  (1 - p_e)`` with ``p_o`` the share of answers they rated alike and ``p_e = sum_k p_1k * p_2k`` (each rater's own
  share of category k).
- **Fleiss' kappa** when three or more raters rated: over the answers rated by at least two of them, with
  ``n_i`` raters of answer i and ``n_ik`` of them choosing category k: ``P_i = sum_k n_ik (n_ik - 1) / (n_i (n_i -
  1))``, ``P = mean_i P_i``, ``p_k = sum_i n_ik / sum_i n_i``, ``P_e = sum_k p_k^2``, ``kappa = (P - P_e) / (1 -
  P_e)``. With every answer rated by all raters this is Fleiss (1971) exactly; with some missing it is the usual
  generalisation to varying numbers of raters. Cohen's kappa of every pair of raters is listed beside it.
- Kappa is undefined (None) when ``p_e = 1`` (every rating in one category) or no answer was rated twice.
- **95 % CIs**: percentile bootstrap over the answers (resampled with replacement, ``n_boot`` times, seeded by
  ``seed``, so the same ratings give the same interval); resamples whose kappa is undefined are left out.
- Overall and per model (the same method as overall).
- **The raters' majority against the parser**: the majority of an answer is the rating more of its raters gave
  than any other (a tie has no majority); where it is correct or incorrect and the parser scored the answer
  (``correct`` True / False: an unreadable answer counts as wrong, as in every metric), ``vs_parser`` gives the
  share where they agree (a MetricValue with its Wilson CI), Cohen's kappa between the two, per model too, and
  ``overruled`` lists the answers where the clinicians' majority contradicts the parser (response id, model,
  item, condition, raw reply, parsed answer, the parser's verdict, the majority and every rater's rating): the
  replies to read to make the parser better.

This is a block of ``probe-ui score --json`` beside the per-model metric families (``rater_agreement``), not a
registered family: families are computed over one model's answers from the variant facts that
:func:`probe_ui.metrics.frame.prepare` extracts, while agreement reads the ratings and pools every model for its
overall figure.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Sequence

import numpy as np
import pandas as pd

from probe_ui.metrics.frame import cmv, mv
from probe_ui.stats import cohen_kappa, fleiss_kappa

CATEGORIES = ("correct", "incorrect", "unsure")
VERDICTS = ("correct", "incorrect")
UNNAMED = "(unnamed)"


def majority(votes: dict[str, str] | None) -> str | None:
    """The rating more raters gave than any other; None for a tie or no votes."""
    if not votes:
        return None
    counts = pd.Series(list(votes.values())).value_counts()
    return str(counts.index[0]) if len(counts) == 1 or counts.iloc[0] > counts.iloc[1] else None


def _raters_kappa(votes: list[dict[str, str]], raters: list[str], n_boot: int, seed: int,
                  units: Sequence[Any] | np.ndarray | None = None) -> dict[str, Any]:
    """The raters' kappa; its interval by a bootstrap that draws whole units of evidence (``units``: each rated
    answer's, :mod:`probe_ui.metrics.units`), so 41 variants of one image rated alike count as one image."""
    if len(raters) == 2:
        a, b = raters
        at = [i for i, v in enumerate(votes) if a in v and b in v]
        out = cohen_kappa([votes[i][a] for i in at], [votes[i][b] for i in at], n_boot=n_boot, seed=seed,
                          clusters=[units[i] for i in at] if units is not None else None)
    else:
        idx = {c: i for i, c in enumerate(CATEGORIES)}
        table = np.zeros((len(votes), len(CATEGORIES)))
        for i, v in enumerate(votes):
            for r in v.values():
                table[i, idx[r]] += 1
        out = fleiss_kappa(table, n_boot=n_boot, seed=seed, clusters=None if units is None else list(units))
    return {**out, "raters": [r or UNNAMED for r in raters]}


def _votes(df: pd.DataFrame) -> list[dict[str, str]]:
    return [dict(v) for v in df["rater_ratings"]]


def rater_agreement(df: pd.DataFrame, *, n_boot: int = 2000, seed: int = 0) -> dict[str, Any] | None:
    """The agreement block of a scored-answer table (module doc), or None when nobody rated any answer::

        {raters, ratings, answers_rated, method: "cohen" | "fleiss" | None,
         overall: {method, kappa, ci, n, observed, expected, raters} | None (fewer than two raters),
         pairs: [{... Cohen's kappa of two raters}] (three or more raters),
         models: {model: {... as overall}},
         vs_parser: {agreement: MetricValue, kappa: {...}, answers, no_majority, unsure, not_scored, overruled,
                     models: {model: MetricValue}},
         overruled: [{response_id, model, item_id, condition, raw_text, parsed, parser, majority, votes}]}
    """
    if df is None or df.empty or "rater_ratings" not in df.columns:
        return None
    rated = df[df["rater_ratings"].map(lambda v: isinstance(v, dict) and len(v) > 0)]
    if rated.empty:
        return None
    from probe_ui.metrics.units import units_of

    votes = _votes(rated)
    found = units_of(rated)
    units = found.keys
    raters = sorted({r for v in votes for r in v})
    method = "cohen" if len(raters) == 2 else "fleiss" if len(raters) > 2 else None
    out: dict[str, Any] = {"raters": [r or UNNAMED for r in raters], "ratings": sum(map(len, votes)),
                           "answers_rated": len(votes), "method": method, "overall": None, "pairs": [],
                           "models": {}}
    if method:
        out["overall"] = _raters_kappa(votes, raters, n_boot, seed, units)
        if len(raters) > 2:
            out["pairs"] = [_raters_kappa(votes, list(p), n_boot, seed, units) for p in combinations(raters, 2)]
        at = pd.Series(np.arange(len(rated)), index=rated.index)
        for model, g in rated.groupby("model", sort=True):
            out["models"][str(model)] = _raters_kappa(_votes(g), raters, n_boot, seed,
                                                      units[at[g.index].to_numpy()])
    out["vs_parser"], out["overruled"] = _versus_parser(rated, votes, n_boot, seed, units, found.kind())
    return out


def _parser_verdict(x: Any) -> bool | None:
    return bool(x) if isinstance(x, (bool, np.bool_)) else None


def _versus_parser(rated: pd.DataFrame, votes: list[dict[str, str]], n_boot: int, seed: int,
                   units: Sequence[Any] | np.ndarray | None = None, kind: str = "item"
                   ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from probe_ui.metrics.frame import value_or_none

    maj = [majority(v) for v in votes]
    error = rated["error"].notna().to_numpy() if "error" in rated.columns else np.zeros(len(rated), dtype=bool)
    parser = [None if e else _parser_verdict(value_or_none(c)) for e, c in zip(error, rated["correct"])]
    both = [i for i, (m, p) in enumerate(zip(maj, parser)) if m in VERDICTS and p is not None]
    agree = [(maj[i] == "correct") == parser[i] for i in both]
    models = rated["model"].astype(str).to_numpy()
    per_model: dict[str, Any] = {}
    unit_of = [units[i] for i in both] if units is not None else list(both)  # an answer its own unit, unknown

    def over(sel: list[int]) -> dict[str, Any]:  # agreement over answers, its interval over their units
        return cmv([agree[k] for k in sel], [str(unit_of[k]) for k in sel], kind=kind) if sel else mv(0, 0)

    for m in sorted(set(models[both])) if both else []:
        per_model[m] = over([k for k, i in enumerate(both) if models[i] == m])
    block = {
        "agreement": over(list(range(len(both)))),
        "kappa": cohen_kappa([verdict for verdict in (maj[i] for i in both) if verdict is not None],  # all of them
                             ["correct" if parser[i] else "incorrect" for i in both], VERDICTS, n_boot=n_boot,
                             seed=seed, clusters=[units[i] for i in both] if units is not None else None),
        "answers": len(both),
        "no_majority": sum(m is None for m in maj),
        "unsure": sum(m == "unsure" for m in maj),
        "not_scored": sum(m in VERDICTS and p is None for m, p in zip(maj, parser)),
        "overruled": len(agree) - sum(agree),
        "models": per_model,
    }
    recs = rated.to_dict("records")
    overruled = []
    for i, ok in zip(both, agree):
        if ok:
            continue
        r = recs[i]
        rid = value_or_none(r.get("response_id"))
        overruled.append({"response_id": int(r["response_id"]) if rid is not None else None,
                          "model": str(r["model"]), "item_id": value_or_none(r.get("item_id")),
                          "condition": value_or_none(r.get("condition")), "raw_text": value_or_none(r.get("raw_text")),
                          "parsed": value_or_none(r.get("parsed")), "parser": "right" if parser[i] else "wrong",
                          "majority": maj[i], "votes": {k or UNNAMED: v for k, v in sorted(votes[i].items())}})
    overruled.sort(key=lambda x: (x["model"], x["response_id"] or 0))
    return block, overruled
