"""The figures every run has, registered once with the one name every view gives them and what they count.

``probe-ui score``, the Results tab's overview, the Stress summary and the report all label these numbers with
these names (:func:`probe_ui.metrics.registry.figure`); a family's headline figures are registered with the family
(``figures=`` of :func:`~probe_ui.metrics.registry.metric`). Two quantities that differ get two names: the
**correctness flip rate** below (right/wrong that changes between an item's original and a variant, over every
perturbation) is not the groups family's **answer flip rate** (the chosen answer that changes, over perturbations
that keep the correct answer).
"""

from __future__ import annotations

from probe_ui.metrics.registry import figure

# ---- per run and model: probe-ui score, the Results overview, the report's overview -------------------------------
ACCURACY = figure("accuracy", "right answers among the scored answers, with its 95 % Wilson interval and n; an "
                              "unreadable answer counts as wrong; failed calls and answers with no known correct "
                              "answer are left out")
RANDOM = figure("random guess", "what answering at random would score on the same questions (the mean of "
                                "1 / number of options)")
UNREADABLE = figure("unreadable", "answers received that could not be read as one of the options")
REFUSED = figure("refused", "answers received that declined to answer")
FAILED = figure("failed calls", "calls that got no answer: a provider error, a timeout, or a model that could "
                                "not be asked here (its reasons are listed per model)", percent=False)
ANSWERED = figure("answered", "calls that got an answer, readable or not (several samples of one question count "
                              "once, by majority vote)", percent=False)
SCORED = figure("scored answers", "answers counted in the accuracy (several samples count once, by majority vote)",
                percent=False)
LATENCY = figure("median latency (s)", "the median time from request to reply, in seconds", percent=False)
COST = figure("cost (USD)", "what the calls cost at the catalogue's prices (cached answers cost nothing)",
              percent=False)

# ---- the Stress summary and the report's "Consistency across variants" ------------------------------------------
RIGHT_ORIGINALS = figure("right on originals", "accuracy on the unperturbed originals")
RIGHT_VARIANTS = figure("right on variants", "accuracy over every perturbed variant")
CORRECTNESS_FLIP = figure("correctness flip rate",
                          "(original, variant) pairs, both scored, whose right/wrong differs (right to wrong or wrong "
                          "to right), over every perturbation, those that move the correct answer included; not the "
                          "answer flip rate, which compares the chosen answers")
PAIRS = figure("pairs compared", "(original, variant) pairs the correctness flip rate compares", percent=False)
FLIPS = figure("right/wrong changes", "pairs whose right/wrong differs (the correctness flip rate's numerator)",
               percent=False)
BROKE = figure("broke", "pairs right on the original and wrong (or unreadable) on the variant", percent=False)
FIXED = figure("fixed", "pairs wrong on the original and right on the variant", percent=False)

__all__ = ["ACCURACY", "ANSWERED", "BROKE", "CORRECTNESS_FLIP", "COST", "FAILED", "FIXED", "FLIPS", "LATENCY", "PAIRS",
           "RANDOM", "REFUSED", "RIGHT_ORIGINALS", "RIGHT_VARIANTS", "SCORED", "UNREADABLE"]
