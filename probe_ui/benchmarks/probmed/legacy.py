"""ProbMed's own scoring rule (``calculate_score.py``), for ``probe-ui score --parser legacy``."""

from __future__ import annotations

from collections.abc import Sequence

from probe_ui.reading.answers import Answer, is_refusal


def find_label(labels: Sequence[str], value: str) -> str:
    for lab in labels:
        if lab.strip().lower() == value:
            return lab
    return value


def parse(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
          gt: str | None = None) -> Answer:
    """ProbMed ``get_score_binary``: ``r = response.strip()``; gt yes → correct iff ``'Yes' in r`` or
    ``r.lower() in ('yes', 'yes.')``; any other gt → correct iff ``'No' in r`` or ``r.lower() in ('no', 'no.')``.
    Case-sensitive substrings, so "Normal" and "Not sure" count as No and "yes" inside a word does not.
    The choice is the gt label when correct, else the other label when its test passes, else None (invalid).
    Without gt, ``correct`` stays None and the choice is whichever single test passes."""
    labels = tuple(labels) or ("yes", "no")
    r = (text or "").strip()
    yes_hit = "Yes" in r or r.lower() in ("yes", "yes.")
    no_hit = "No" in r or r.lower() in ("no", "no.")
    refusal = is_refusal(text or "")
    yes_lab, no_lab = find_label(labels, "yes"), find_label(labels, "no")
    if gt is None:
        if yes_hit != no_hit:
            return Answer(yes_lab if yes_hit else no_lab, "legacy-probmed", invalid=False, refusal=refusal)
        return Answer(None, "legacy-probmed", invalid=True, refusal=refusal)
    g = gt.strip().lower()
    if g == "yes":
        correct, other_hit, gt_lab, other_lab = yes_hit, no_hit, yes_lab, no_lab
    else:  # the original's ``else`` branch: anything but 'yes' is scored as a 'no' question
        correct, other_hit, gt_lab, other_lab = no_hit, yes_hit, no_lab, yes_lab
    if correct:
        return Answer(gt_lab, "legacy-probmed", invalid=False, refusal=refusal, correct=True)
    if other_hit:
        return Answer(other_lab, "legacy-probmed", invalid=False, refusal=refusal, correct=False)
    return Answer(None, "legacy-probmed", invalid=True, refusal=refusal, correct=False)
