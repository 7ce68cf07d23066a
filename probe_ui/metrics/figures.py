"""The figures every run has, registered once with the one name every view gives them and what they count.

``probe-ui score``, the Results tab's overview, the Stress summary and the report all label these numbers with
these names (:func:`probe_ui.metrics.registry.figure`); a family's headline figures are registered with the family
(``figures=`` of :func:`~probe_ui.metrics.registry.metric`). Two quantities that differ get two names: the
**correctness flip rate** below (right/wrong that changes between an item's original and a variant, over every
perturbation) is not the groups family's **answer flip rate** (the chosen answer that changes, over perturbations
that keep the correct answer).
"""

from __future__ import annotations

from probe_ui.metrics.registry import Explanation, figure

WILSON = ("the 95 % Wilson score interval of the proportion: the range of true rates that would plausibly give "
          "this count on this many questions; with few questions it is wide, and two models whose intervals "
          "overlap widely may not differ")
#: the interval of a rate over answers that come in units of evidence (issue 43; probe_ui.metrics.units)
CLUSTERED = ("the 95 % interval over the units of evidence, not the answers: all the answers about one item (its "
             "variants, samples, rotations and severity levels), or one pair (MediConfusion), one image (ProbMed), "
             "one patient or study (a preset's patient: or study:) count together, and the page says how many, as "
             "n = 16 items (656 answers). Where each unit holds one answer it is the Wilson score interval. "
             "Otherwise it is Wilson's over the effective number of answers, n divided by the design effect (Rao and "
             "Scott: how much the answers of one unit agree, their cluster-robust variance over the binomial one; "
             "never below 1, and never below the items' own), with Student's t on units - 1 degrees of freedom: "
             "41 variants of 16 images answered alike give a design effect near 41 and the interval of 16 answers. "
             "Under 10 units the page calls it rough")
COUNT_CHANCE = "none: a count, not a rate"
COUNT_CI = "none: a count of what happened in this run"

# ---- per run and model: probe-ui score, the Results overview, the report's overview -------------------------------
ACCURACY = figure("accuracy", "right answers among the scored answers, with its 95 % interval over the units of "
                              "evidence (items, pairs, images) and n; an unreadable answer counts as wrong; failed "
                              "calls and answers with no known correct answer are left out", explain=Explanation(
    measures="how often the model's answer is the right one, over every question it answered in the run",
    paper="the plain accuracy every paper reports first (docs/reference.md §4); a reply that cannot be read counts "
          "as wrong, as MediConfusion and the Illusion of Readiness count it",
    computed="right answers / scored answers; several samples of one question count once, by majority vote; "
             "failed calls (no reply) and questions without a known right answer are left out of both",
    chance="the 'random guess' figure beside it: the mean of 1 / number of options over the same questions (50 % "
           "for yes/no, 25 % for four options)",
    ci=CLUSTERED))
RANDOM = figure("random guess", "what answering at random would score on the same questions (the mean of "
                                "1 / number of options)", explain=Explanation(
    measures="the accuracy a model that picks an option at random would expect on exactly these questions",
    paper="the papers' random-guess rows (MediConfusion, ProbMed, MedBLINK); baseline/random reproduces it by "
          "asking",
    computed="the mean over the scored questions of 1 / the number of options (or labels) each offered",
    chance="it is the reference itself: an accuracy near it means the model does no better than guessing",
    ci="none: it is computed, not measured"))
UNREADABLE = figure("unreadable", "answers received that could not be read as one of the options",
                    explain=Explanation(
    measures="how often the model replied without a readable answer: hedging, several answers, a cut-off reply",
    paper="MediConfusion's invalid rate; every paper counts these replies as wrong",
    computed="replies the answer reader leaves invalid or ambiguous / replies received (docs/reference.md §3 for "
             "how replies are read)",
    chance="none: a property of how the model answers, not of guessing",
    ci=WILSON))
REFUSED = figure("refused", "answers received that declined to answer", explain=Explanation(
    measures="how often the model declined to answer (\"I cannot determine this from the image\")",
    paper="the refusal and abstention rates of the Illusion of Readiness and MedVH",
    computed="replies flagged as refusals (a list of phrases in probe_ui/reading/refusals.py) / replies received; "
             "a refusal that still names an option is counted here and read as that option",
    chance="none: a property of how the model answers",
    ci=WILSON))
FAILED = figure("failed calls", "calls that got no answer: a provider error, a timeout, or a model that could "
                                "not be asked here (its reasons are listed per model)", percent=False,
                explain=Explanation(
    measures="calls that never produced a reply, so nothing could be scored",
    paper="probe-ui's own bookkeeping",
    computed="stored calls with an error (provider error, timeout, no key, no server); they are left out of "
             "accuracy, and running the same batch again retries them",
    chance=COUNT_CHANCE, ci=COUNT_CI))
READINGS = figure("readings", "how each reading was settled: sure (nobody would doubt it), unsure (the reader's "
                              "best guess, to review), settled by a clinician", percent=False, explain=Explanation(
    measures="how far the figures rest on readings nobody would doubt, and how many replies a clinician still has to "
             "read",
    paper="probe-ui's own (issue 46): a reading is sure only where a careful clinician would not doubt it; the rest "
          "are the reader's best guesses (a hedge, a late change of answer, a negation near an option, a "
          "contradiction, a cut-off reply), which the 'To review' list and probe-ui review RUN settle",
    computed="counts of replies received: settled (a clinician read it; with the parser 'settled' that reading "
             "counts in every figure), sure, unsure; failed calls and free-text replies are left out",
    chance=COUNT_CHANCE, ci=COUNT_CI))
ANSWERED = figure("answered", "calls that got an answer, readable or not (several samples of one question count "
                              "once, by majority vote)", percent=False, explain=Explanation(
    measures="how many questions got a reply of any kind",
    paper="probe-ui's own bookkeeping",
    computed="questions with a reply, readable or not; samples of one question count once",
    chance=COUNT_CHANCE, ci=COUNT_CI))
SCORED = figure("scored answers", "answers counted in the accuracy (several samples count once, by majority vote)",
                percent=False, explain=Explanation(
    measures="the n behind the accuracy",
    paper="probe-ui's own bookkeeping",
    computed="answered questions with a known right answer; samples of one question count once",
    chance=COUNT_CHANCE, ci=COUNT_CI))
UNITS = figure("units of evidence", "how many units the scored answers come in: the items (every variant and sample "
                                   "of one counts together), MediConfusion's pairs, ProbMed's images, a preset's "
                                   "patients or studies; the intervals are drawn over them", percent=False,
               explain=Explanation(
    measures="how much independent evidence the accuracy rests on: 41 variants of 16 images are 16 images' worth",
    paper="the unit each benchmark's own analysis counts in (a MediConfusion pair, a ProbMed image); Obuchowski "
          "(1997) and Rao and Scott's design effect for clustered readings in radiology",
    computed="the distinct units among the scored answers (probe_ui/metrics/units.py: a preset's patient: or study:, "
             "else the benchmark's unit, else a preset's group, else the item)",
    chance=COUNT_CHANCE, ci=COUNT_CI))
LATENCY = figure("median latency (s)", "the median time from request to reply, in seconds", percent=False,
                 explain=Explanation(
    measures="how long a typical answer took",
    paper="probe-ui's own",
    computed="the median over the model's answered calls of the time from sending to the full reply (cached "
             "answers keep the time of the call that made them)",
    chance="none: a time", ci="none: the median of this run's calls"))
COST = figure("cost (USD)", "what the calls cost at the catalogue's prices (cached answers cost nothing)",
              percent=False, explain=Explanation(
    measures="what the run's calls to this model cost",
    paper="probe-ui's own",
    computed="the tokens each provider reported x the catalogue's price_input_per_m / price_output_per_m; "
             "models without prices (local servers, hf/) cost nothing here",
    chance="none: a cost", ci="none: a sum"))

# ---- the Stress summary and the report's "Consistency across variants" ------------------------------------------
RIGHT_ORIGINALS = figure("right on originals", "accuracy on the unperturbed originals", explain=Explanation(
    measures="accuracy before any perturbation: the starting point a stress test is compared with",
    paper="the unperturbed baseline of every probing paper",
    computed="right answers / scored answers over the original (condition 'original') variants only",
    chance="the mean of 1 / number of options over those questions",
    ci=WILSON))
RIGHT_VARIANTS = figure("right on variants", "accuracy over every perturbed variant", explain=Explanation(
    measures="accuracy once the perturbations are applied",
    paper="the perturbed conditions of every probing paper, pooled",
    computed="right answers / scored answers over every variant that is not the original; a perturbation that "
             "moves the right answer is scored against the moved answer",
    chance="the mean of 1 / number of options over those variants",
    ci=WILSON))
CORRECTNESS_FLIP = figure("correctness flip rate",
                          "(original, variant) pairs, both scored, whose right/wrong differs (right to wrong or wrong "
                          "to right), over every perturbation, those that move the correct answer included; not the "
                          "answer flip rate, which compares the chosen answers", explain=Explanation(
    measures="how often a perturbation changes whether the model is right: its answers' stability, good and bad",
    paper="probe-ui's own summary of a stress test (the Stress tab, the report's 'Consistency across variants'); "
          "the papers' per-perturbation accuracies are in each family",
    computed="(original, variant) pairs of one item, both scored, whose right/wrong differs / pairs compared, over "
             "every perturbation, including those that move the right answer (a rotated 'upright?' question)",
    chance="a guesser that is right with probability p on both flips with probability 2p(1 - p): 50 % for "
           "yes/no, 37.5 % for four options",
    ci="shown without an interval: read it with 'pairs compared' beside it; on a few pairs one flip moves it by "
       "many points"))
PAIRS = figure("pairs compared", "(original, variant) pairs the correctness flip rate compares", percent=False,
               explain=Explanation(
    measures="the n behind the correctness flip rate",
    paper="probe-ui's own", computed="pairs of an item's original and one of its variants, both scored",
    chance=COUNT_CHANCE, ci=COUNT_CI))
FLIPS = figure("right/wrong changes", "pairs whose right/wrong differs (the correctness flip rate's numerator)",
               percent=False, explain=Explanation(
    measures="how many pairs changed from right to wrong or wrong to right",
    paper="probe-ui's own", computed="broke + fixed", chance=COUNT_CHANCE, ci=COUNT_CI))
BROKE = figure("broke", "pairs right on the original and wrong (or unreadable) on the variant", percent=False,
               explain=Explanation(
    measures="questions the perturbation broke: the model knew the answer, and lost it",
    paper="probe-ui's own (the dark red 'broke' cells of the Probe and Stress tables)",
    computed="pairs right on the original and wrong or unreadable on the variant",
    chance=COUNT_CHANCE, ci=COUNT_CI))
FIXED = figure("fixed", "pairs wrong on the original and right on the variant", percent=False,
               explain=Explanation(
    measures="questions the model got right only once perturbed (often luck: compare with 'broke')",
    paper="probe-ui's own", computed="pairs wrong or unreadable on the original and right on the variant",
    chance=COUNT_CHANCE, ci=COUNT_CI))

__all__ = ["ACCURACY", "ANSWERED", "BROKE", "CORRECTNESS_FLIP", "COST", "FAILED", "FIXED", "FLIPS", "LATENCY", "PAIRS",
           "RANDOM", "READINGS", "REFUSED", "RIGHT_ORIGINALS", "RIGHT_VARIANTS", "SCORED", "UNREADABLE"]
